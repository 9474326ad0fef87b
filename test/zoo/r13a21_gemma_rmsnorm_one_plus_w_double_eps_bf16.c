/* Gemma RMSNorm: y = x * rsqrt(mean(x^2) + eps) * (1 + w), eps a double parameter,
 * computed in float on bf16 storage; rows as (long) token counts. */
#include <math.h>
#include "fusecc.h"

void gemma_rms(long T, long C, double eps, const fusecc_bf16 x[T][C], const fusecc_bf16 w[C],
	       fusecc_bf16 y[T][C])
{
#pragma fuse kernel(gemma_rms) parallel(t)
	for (long t = 0; t < T; ++t) {
		float var = 0.0f;
		for (long c = 0; c < C; ++c) {
			const float xv = fusecc_bf16_to_float(x[t][c]);
			var += xv * xv;
		}
		var /= (float)C;
		const float r = 1.0f / sqrtf(var + (float)eps);
		for (long c = 0; c < C; ++c)
			y[t][c] = fusecc_float_to_bf16(fusecc_bf16_to_float(x[t][c]) * r *
						      (1.0f + fusecc_bf16_to_float(w[c])));
	}
}
