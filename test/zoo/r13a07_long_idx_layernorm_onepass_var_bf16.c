/* LayerNorm with one-pass statistics E[x^2] - E[x]^2 (Apex style), long loop indices, bf16. */
#include <math.h>
#include "fusecc.h"

void ln_onepass(long R, long C, float eps, const fusecc_bf16 x[R][C], const float g[C],
		const float bta[C], fusecc_bf16 y[R][C], float mean_out[R], float rstd_out[R])
{
#pragma fuse kernel(ln_onepass) parallel(r)
	for (long r = 0; r < R; r++) {
		float s1 = 0.0f, s2 = 0.0f;
		for (long c = 0; c < C; c++) {
			float v = fusecc_bf16_to_float(x[r][c]);
			s1 += v;
			s2 += v * v;
		}
		float mu = s1 / (float)C;
		float var = s2 / (float)C - mu * mu;
		float rs = 1.0f / sqrtf(var + eps);
		mean_out[r] = mu;
		rstd_out[r] = rs;
		for (long c = 0; c < C; c++)
			y[r][c] = fusecc_float_to_bf16((fusecc_bf16_to_float(x[r][c]) - mu) * rs * g[c] + bta[c]);
	}
}
