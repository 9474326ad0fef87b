/* n09_add_rmsnorm_residual_fp16.c: vLLM's fused_add_rms_norm: h = x + residual is written
 * back into residual (the next layer's residual stream), then out = h * rsqrt(mean(h^2) +
 * eps) * weight. fp16 everywhere.
 * Style: residual is an input and an output (read, then stored in place, then read back
 * in the scale loop); the sum of squares accumulated in the add loop; eps a float
 * parameter; 1/sqrtf in a local. Tabs. */
#include <math.h>

void fused_add_rmsnorm(int N, int D, float eps, const _Float16 x[N][D], _Float16 residual[N][D],
		       const _Float16 weight[D], _Float16 out[N][D])
{
#pragma fuse kernel(fused_add_rmsnorm) parallel(n)
	for (int n = 0; n < N; n++) {
		float ss = 0.0f;
		for (int d = 0; d < D; d++) {
			float h = (float)x[n][d] + (float)residual[n][d];
			residual[n][d] = (_Float16)h;
			ss += h * h;
		}
		float rrms = 1.0f / sqrtf(ss / (float)D + eps);
		for (int d = 0; d < D; d++)
			out[n][d] = (_Float16)((float)residual[n][d] * rrms * (float)weight[d]);
	}
}
