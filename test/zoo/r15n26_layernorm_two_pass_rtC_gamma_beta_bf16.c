/* nn.LayerNorm(768) in bf16 written two-pass: mean, then variance of (x - mean), affine. */
#include <math.h>
#include "fusecc.h"

void layer_norm(int R, int C, float eps, const fusecc_bf16 x[R][C], const fusecc_bf16 gamma[C],
		const fusecc_bf16 beta[C], fusecc_bf16 y[R][C])
{
#pragma fuse kernel(layer_norm) parallel(r)
	for (int r = 0; r < R; r++) {
		float mean = 0.0f;
		for (int c = 0; c < C; c++) mean += fusecc_bf16_to_float(x[r][c]);
		mean /= (float)C;
		float var = 0.0f;
		for (int c = 0; c < C; c++) {
			const float d = fusecc_bf16_to_float(x[r][c]) - mean;
			var += d * d;
		}
		var /= (float)C;
		const float rstd = 1.0f / sqrtf(var + eps);
		for (int c = 0; c < C; c++)
			y[r][c] = fusecc_float_to_bf16((fusecc_bf16_to_float(x[r][c]) - mean) * rstd *
						       fusecc_bf16_to_float(gamma[c]) + fusecc_bf16_to_float(beta[c]));
	}
}
