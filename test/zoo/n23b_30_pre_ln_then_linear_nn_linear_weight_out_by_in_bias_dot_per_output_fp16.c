/* LayerNorm then nn.Linear in PyTorch's weight layout ([out][in], a dot per output),
 * as a PyTorch user writes `linear(layer_norm(x))` in C: the normalised row into a local
 * array, then y[n] = b[n] + sum_k xn[k] * W[n][k]. fp16 storage, K fixed at 1024. */
#include <math.h>

#define K 1024

void ln_linear(int R, int N, float eps, const _Float16 x[R][K], const _Float16 gamma[K],
	       const _Float16 beta[K], const _Float16 W[N][K], const _Float16 bias[N], _Float16 y[R][N])
{
#pragma fuse kernel(ln_linear) parallel(r)
	for (int r = 0; r < R; r++) {
		float mean = 0.0f;
		for (int k = 0; k < K; k++)
			mean += (float)x[r][k];
		mean /= K;
		float var = 0.0f;
		for (int k = 0; k < K; k++)
			var += ((float)x[r][k] - mean) * ((float)x[r][k] - mean);
		var /= K;
		const float rstd = 1.0f / sqrtf(var + eps);
		float xn[K];
		for (int k = 0; k < K; k++)
			xn[k] = ((float)x[r][k] - mean) * rstd * (float)gamma[k] + (float)beta[k];
		for (int n = 0; n < N; n++) {
			float acc = (float)bias[n];
			for (int k = 0; k < K; k++)
				acc += xn[k] * (float)W[n][k];
			y[r][n] = (_Float16)acc;
		}
	}
}
