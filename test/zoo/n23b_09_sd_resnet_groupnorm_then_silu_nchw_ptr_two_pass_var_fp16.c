/* Stable Diffusion ResNet block: GroupNorm(32) then SiLU, NCHW fp16, as an HPC person
 * writes the host reference: per (n, g) a slab of CPG * HW contiguous elements, two-pass
 * mean and variance over the slab, then the per-channel affine and x * sigmoid(x). */
#include <math.h>

void groupnorm_silu(int N, int C, int G, int HW, float eps, const _Float16 *x,
		    const float *gamma, const float *beta, _Float16 *y)
{
	const int cpg = C / G;
#pragma fuse kernel(groupnorm_silu) parallel(n, g)
	for (int n = 0; n < N; n++)
		for (int g = 0; g < G; g++) {
			const _Float16 *xs = x + ((long)n * C + (long)g * cpg) * HW;
			_Float16 *ys = y + ((long)n * C + (long)g * cpg) * HW;
			const int cnt = cpg * HW;
			float s = 0.0f;
			for (int e = 0; e < cnt; e++)
				s += (float)xs[e];
			const float mean = s / cnt;
			float ss = 0.0f;
			for (int e = 0; e < cnt; e++) {
				float d = (float)xs[e] - mean;
				ss += d * d;
			}
			const float rstd = 1.0f / sqrtf(ss / cnt + eps);
			for (int e = 0; e < cnt; e++) {
				const int c = g * cpg + e / HW;
				float v = ((float)xs[e] - mean) * rstd * gamma[c] + beta[c];
				ys[e] = (_Float16)(v / (1.0f + expf(-v)));
			}
		}
}
