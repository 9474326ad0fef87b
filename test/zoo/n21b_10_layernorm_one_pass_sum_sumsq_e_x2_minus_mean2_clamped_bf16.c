/* One-pass LayerNorm statistics as apex's fast path: sum and sum of squares in one loop,
 * var = E[x^2] - mean^2 clamped at 0, bf16 in/out, affine. */
#include <math.h>
#include "fusecc.h"

void ln_onepass(int N, int C, float eps, const fusecc_bf16 x[N][C], const float g[C], const float bta[C],
		fusecc_bf16 y[N][C])
{
#pragma fuse kernel(ln_onepass) parallel(n)
	for (int n = 0; n < N; n++) {
		float s1 = 0.0f, s2 = 0.0f;
		for (int c = 0; c < C; c++) {
			float v = fusecc_bf16_to_float(x[n][c]);
			s1 += v;
			s2 += v * v;
		}
		float mean = s1 / C;
		float var = s2 / C - mean * mean;
		var = var < 0.0f ? 0.0f : var;
		float rstd = 1.0f / sqrtf(var + eps);
		for (int c = 0; c < C; c++)
			y[n][c] = fusecc_float_to_bf16((fusecc_bf16_to_float(x[n][c]) - mean) * rstd * g[c] + bta[c]);
	}
}
