/* row_layernorm_twopass_auto_bf16.c: LayerNorm over the last dim with the careful
 * two-pass variance (mean, then sum of (x - mean)^2), bf16 in and out, fp32 gamma/beta,
 * run-time C. Unlike r05 it has no strategy clause and finalises the mean in place
 * (mean /= C). (Written for the CTA-per-row work, not by the zoo's helper; until the
 * sums-of-separable-terms work the variance was refused, and the GPU printers ran the three
 * loops one after another.) */
#include <math.h>
#include "fusecc.h"

void layernorm(int R, int C, float eps, const fusecc_bf16 x[R][C], const float gamma[C],
	       const float beta[C], fusecc_bf16 y[R][C])
{
#pragma fuse kernel(layernorm) parallel(r)
	for (int r = 0; r < R; r++) {
		float mean = 0.0f;
		for (int c = 0; c < C; c++)
			mean += fusecc_bf16_to_float(x[r][c]);
		mean /= (float)C;
		float var = 0.0f;
		for (int c = 0; c < C; c++) {
			float d = fusecc_bf16_to_float(x[r][c]) - mean;
			var += d * d;
		}
		var /= (float)C;
		const float rstd = 1.0f / sqrtf(var + eps);
		for (int c = 0; c < C; c++)
			y[r][c] = fusecc_float_to_bf16((fusecc_bf16_to_float(x[r][c]) - mean) * rstd * gamma[c] + beta[c]);
	}
}
