/* row_rmsnorm_fp16.c: LlamaRMSNorm: y = x / sqrt(mean(x^2) + eps) * weight, fp16 in and
 * out, fp32 math.
 * Style: tokens t over HIDDEN channels c, sum of squares with a helper local, the
 * reciprocal rms as a local between the passes, the weight as an fp16 array.
 * parallel(t) rolling(c). */
#include <math.h>

void rmsnorm(int T, int HIDDEN, float eps, const _Float16 x[T][HIDDEN],
	     const _Float16 weight[HIDDEN], _Float16 y[T][HIDDEN])
{
#pragma fuse kernel(rmsnorm) parallel(t) rolling(c)
	for (int t = 0; t < T; t++) {
		float ss = 0.0f;
		for (int c = 0; c < HIDDEN; c++) {
			float xv = (float)x[t][c];
			ss += xv * xv;
		}
		float rrms = 1.0f / sqrtf(ss / (float)HIDDEN + eps);
		for (int c = 0; c < HIDDEN; c++)
			y[t][c] = (_Float16)((float)x[t][c] * rrms * (float)weight[c]);
	}
}
