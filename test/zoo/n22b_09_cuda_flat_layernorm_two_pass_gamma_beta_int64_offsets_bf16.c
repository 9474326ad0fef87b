/* CUDA-C reference for a LayerNorm kernel: flat bf16 pointers, int64_t row offsets, mean then
 * variance in a second pass over the row, gamma/beta in bf16, rstd saved for the backward. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void layernorm_fwd(int M, int N, float eps, const fusecc_bf16 *X, const fusecc_bf16 *gamma,
		   const fusecc_bf16 *beta, fusecc_bf16 *Y, float *mean_out, float *rstd_out)
{
#pragma fuse kernel(layernorm_fwd) parallel(row)
	for (int row = 0; row < M; row++) {
		const int64_t base = (int64_t)row * N;
		float sum = 0.f;
		for (int col = 0; col < N; col++)
			sum += fusecc_bf16_to_float(X[base + col]);
		const float mu = sum / N;
		float sq = 0.f;
		for (int col = 0; col < N; col++) {
			const float d = fusecc_bf16_to_float(X[base + col]) - mu;
			sq += d * d;
		}
		const float rstd = 1.f / sqrtf(sq / N + eps);
		for (int col = 0; col < N; col++) {
			const float xhat = (fusecc_bf16_to_float(X[base + col]) - mu) * rstd;
			Y[base + col] = fusecc_float_to_bf16(xhat * fusecc_bf16_to_float(gamma[col]) +
							     fusecc_bf16_to_float(beta[col]));
		}
		mean_out[row] = mu;
		rstd_out[row] = rstd;
	}
}
