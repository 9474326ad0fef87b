/* n08_groupnorm_nchw_rtHW_fp16.c: GroupNorm over an NCHW activation (diffusion UNets:
 * C = 320, G = 32, HW = 64*64 and smaller), fp16 x and y, fp32 affine per channel; each
 * (n, g) is one row of CPG * HW elements.
 * Style: torch's semantics written literally: nested channel-in-group and spatial loops
 * over x[n][g * CPG + cc][p], two-pass mean and variance, affine by the real channel.
 * HW is a run-time size of any value (the loop over p is no head dim). Tabs. */
#include <math.h>

void groupnorm(int N, int G, int CPG, int HW, float eps, const _Float16 x[N][G * CPG][HW],
	       const float gamma[G * CPG], const float beta[G * CPG], _Float16 y[N][G * CPG][HW])
{
#pragma fuse kernel(groupnorm) parallel(n, g)
	for (int n = 0; n < N; n++)
		for (int g = 0; g < G; g++) {
			const float cnt = (float)(CPG * HW);
			float sum = 0.0f;
			for (int cc = 0; cc < CPG; cc++)
				for (int p = 0; p < HW; p++)
					sum += (float)x[n][g * CPG + cc][p];
			float mean = sum / cnt;
			float sq = 0.0f;
			for (int cc = 0; cc < CPG; cc++)
				for (int p = 0; p < HW; p++) {
					float d = (float)x[n][g * CPG + cc][p] - mean;
					sq += d * d;
				}
			float inv = 1.0f / sqrtf(sq / cnt + eps);
			for (int cc = 0; cc < CPG; cc++)
				for (int p = 0; p < HW; p++) {
					int ch = g * CPG + cc;
					y[n][ch][p] = (_Float16)(((float)x[n][ch][p] - mean) * inv * gamma[ch] + beta[ch]);
				}
		}
}
