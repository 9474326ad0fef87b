/* GroupNorm over channels-last activations (diffusers' UNet on NHWC): x[N][HW][C], the group g
 * covers channels [g*CPG, (g+1)*CPG) at every pixel; two-pass statistics per (n, g). fp16. */
#include <math.h>

void groupnorm_nhwc(int N, int HW, int G, int CPG, float eps, const _Float16 x[N][HW][G * CPG], const _Float16 gamma[G * CPG],
		    const _Float16 beta[G * CPG], _Float16 y[N][HW][G * CPG])
{
#pragma fuse kernel(groupnorm_nhwc) parallel(n, g)
	for (int n = 0; n < N; n++)
		for (int g = 0; g < G; g++) {
			float sum = 0.0f;
			for (int p = 0; p < HW; p++)
				for (int cc = 0; cc < CPG; cc++) sum += (float)x[n][p][g * CPG + cc];
			const float mean = sum / (float)(HW * CPG);
			float sq = 0.0f;
			for (int p = 0; p < HW; p++)
				for (int cc = 0; cc < CPG; cc++) {
					const float d = (float)x[n][p][g * CPG + cc] - mean;
					sq += d * d;
				}
			const float rstd = 1.0f / sqrtf(sq / (float)(HW * CPG) + eps);
			for (int p = 0; p < HW; p++)
				for (int cc = 0; cc < CPG; cc++) {
					const int c = g * CPG + cc;
					y[n][p][c] = (_Float16)(((float)x[n][p][c] - mean) * rstd * (float)gamma[c] + (float)beta[c]);
				}
		}
}
