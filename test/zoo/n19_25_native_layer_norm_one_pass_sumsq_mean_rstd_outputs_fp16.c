/* aten native_layer_norm CPU (LayerNormKernelImpl, fp16 in, float accumulate) returning (Y, mean, rstd):
 * one pass of sum and sum of squares, var = max(E[x^2] - mean^2, 0), rstd = 1/sqrt(var + eps). */
#include <math.h>
void native_layer_norm(int M, int N, float eps, const _Float16 X[M][N], const _Float16 gamma[N], const _Float16 beta[N],
		       _Float16 Y[M][N], float mean[M], float rstd[M])
{
#pragma fuse kernel(native_layer_norm) parallel(i)
	for (int i = 0; i < M; i++) {
		float s = 0.0f, sq = 0.0f;
		for (int j = 0; j < N; j++) {
			const float x = (float)X[i][j];
			s += x;
			sq += x * x;
		}
		const float mu = s / (float)N;
		float var = sq / (float)N - mu * mu;
		var = var < 0.0f ? 0.0f : var;
		const float r = 1.0f / sqrtf(var + eps);
		mean[i] = mu;
		rstd[i] = r;
		for (int j = 0; j < N; j++) Y[i][j] = (_Float16)(((float)X[i][j] - mu) * r * (float)gamma[j] + (float)beta[j]);
	}
}
