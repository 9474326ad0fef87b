/* Probe: integer division and modulo in subscripts: GroupNorm over a flat NCHW buffer with
 * one loop over the group's elements e, channel c = g * CPG + e / HW, pixel e % HW. */
#include <math.h>

void gn_flat(int N, int G, int CPG, int HW, const float *x, const float *gamma, const float *beta, float *y)
{
#pragma fuse kernel(gn_flat) parallel(n, g)
	for (int n = 0; n < N; n++)
		for (int g = 0; g < G; g++) {
			const int base = (n * G + g) * CPG * HW;
			const int cnt = CPG * HW;
			float s = 0.0f, ss = 0.0f;
			for (int e = 0; e < cnt; e++) {
				s += x[base + e];
				ss += x[base + e] * x[base + e];
			}
			const float mu = s / cnt;
			const float rs = 1.0f / sqrtf(ss / cnt - mu * mu + 1e-5f);
			for (int e = 0; e < cnt; e++) {
				const int c = g * CPG + e / HW;
				y[base + e] = (x[base + e] - mu) * rs * gamma[c] + beta[c];
			}
		}
}
