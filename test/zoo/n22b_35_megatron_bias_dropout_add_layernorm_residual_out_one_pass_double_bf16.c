/* Megatron's bias-dropout-add fused with the next LayerNorm, inference (no dropout):
 * h = x + bias + residual stored as the new residual, then LayerNorm(h) with one-pass statistics
 * in double (sum, sum of squares), gamma/beta, bf16 everywhere. */
#include <math.h>
#include "fusecc.h"

void bias_add_ln(int T, int H, float eps, const fusecc_bf16 x[T][H], const fusecc_bf16 bias[H],
		 const fusecc_bf16 residual[T][H], const fusecc_bf16 gamma[H], const fusecc_bf16 beta[H],
		 fusecc_bf16 residual_out[T][H], fusecc_bf16 y[T][H])
{
#pragma fuse kernel(bias_add_ln) parallel(t)
	for (int t = 0; t < T; t++) {
		double s1 = 0.0, s2 = 0.0;
		for (int i = 0; i < H; i++) {
			const float h = fusecc_bf16_to_float(x[t][i]) + fusecc_bf16_to_float(bias[i]) +
					fusecc_bf16_to_float(residual[t][i]);
			residual_out[t][i] = fusecc_float_to_bf16(h);
			s1 += h;
			s2 += (double)h * h;
		}
		const double mean = s1 / H;
		const double var = s2 / H - mean * mean;
		const float rstd = (float)(1.0 / sqrt(var + eps));
		for (int i = 0; i < H; i++) {
			const float hn = (fusecc_bf16_to_float(residual_out[t][i]) - (float)mean) * rstd;
			y[t][i] = fusecc_float_to_bf16(hn * fusecc_bf16_to_float(gamma[i]) + fusecc_bf16_to_float(beta[i]));
		}
	}
}
