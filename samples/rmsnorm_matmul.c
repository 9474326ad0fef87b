/* rmsnorm_matmul.c: RMSNorm followed by a matmul, out = (x / rms(x) * g) . w, per row r:
 * ss = sum x^2, inv = 1 / sqrt(ss / K + eps), out[r][n] = sum_k x[r][k] * inv * g[k] * w[k][n].
 * The matmul consumes the reduction ss; rolling(k) fuses both into one pass over k that
 * rescales the partial dot products when inv changes. fp32 activations, bf16 weights
 * and output (fusecc.h; compile with -I include); e.g. R = 4096 tokens, K = N = 4096. */
#include <math.h>
#include "fusecc.h"

void rmsnorm_matmul(int R, int K, int N, float eps, const float x[R][K],
		    const fusecc_bf16 g[K], const fusecc_bf16 w[K][N], fusecc_bf16 out[R][N])
{
#pragma fuse kernel(rmsnorm_matmul) parallel(r, n) tile(r:64, n:64, k:32) rolling(k)
	for (int r = 0; r < R; r++) {
		float ss = 0.0f;
		for (int k = 0; k < K; k++)
			ss += x[r][k] * x[r][k];
		float inv = 1.0f / sqrtf(ss / K + eps);
		for (int n = 0; n < N; n++) {
			float acc = 0.0f;
			for (int k = 0; k < K; k++)
				acc += (x[r][k] * inv * fusecc_bf16_to_float(g[k])) *
				       fusecc_bf16_to_float(w[k][n]);
			out[r][n] = fusecc_float_to_bf16(acc);
		}
	}
}
