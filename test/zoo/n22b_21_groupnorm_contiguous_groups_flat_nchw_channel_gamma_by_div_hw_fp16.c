/* GroupNorm(G, C) on NCHW fp16 as a CUDA engineer views it: each (n, g) is one contiguous run
 * of CPG * HW elements; the channel of element k in the group is g * CPG + k / HW. */
#include <math.h>

void group_norm(int N, int G, int CPG, int HW, float eps, const _Float16 *x, const float *gamma,
		const float *beta, _Float16 *y)
{
#pragma fuse kernel(group_norm) parallel(n, g)
	for (int n = 0; n < N; n++)
		for (int g = 0; g < G; g++) {
			const int len = CPG * HW;
			const long base = ((long)n * G + g) * len;
			float s = 0.0f;
			for (int k = 0; k < len; k++)
				s += (float)x[base + k];
			const float mean = s / len;
			float v = 0.0f;
			for (int k = 0; k < len; k++) {
				const float d = (float)x[base + k] - mean;
				v += d * d;
			}
			const float rstd = 1.0f / sqrtf(v / len + eps);
			for (int k = 0; k < len; k++) {
				const int c = g * CPG + k / HW;
				y[base + k] = (_Float16)(((float)x[base + k] - mean) * rstd * gamma[c] + beta[c]);
			}
		}
}
