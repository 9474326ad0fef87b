/* row_rmsnorm_rowcopy_fp16.c: RMSNorm (Llama) written the way a port of a fused CUDA
 * kernel reads: the token's hidden vector is converted once into a local fp32 copy
 * (`float h[HIDDEN]`, #define HIDDEN 4096), the sum of squares is taken from the copy,
 * the copy is scaled in place by the reciprocal rms, and the output is the scaled copy
 * times the fp16 weight. Tokens t, channels k; parallel(t), no strategy clause. */
#include <math.h>
#define HIDDEN 4096

void rmsnorm_copy(int T, float eps, const _Float16 x[T][HIDDEN], const _Float16 w[HIDDEN], _Float16 y[T][HIDDEN])
{
#pragma fuse kernel(rmsnorm_copy) parallel(t)
	for (int t = 0; t < T; t++) {
		float h[HIDDEN];
		for (int k = 0; k < HIDDEN; k++)
			h[k] = (float)x[t][k];
		float ss = 0.0f;
		for (int k = 0; k < HIDDEN; k++)
			ss += h[k] * h[k];
		const float r = 1.0f / sqrtf(ss / HIDDEN + eps);
		for (int k = 0; k < HIDDEN; k++)
			h[k] *= r;
		for (int k = 0; k < HIDDEN; k++)
			y[t][k] = (_Float16)(h[k] * (float)w[k]);
	}
}
