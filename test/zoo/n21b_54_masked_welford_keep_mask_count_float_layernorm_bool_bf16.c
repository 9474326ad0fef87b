/* Masked LayerNorm statistics by Welford (padding positions excluded), bool keep mask,
 * then the normalised row with zeros at the masked positions. */
#include <math.h>
#include <stdbool.h>
#include "fusecc.h"

void masked_ln(int N, int C, float eps, const fusecc_bf16 x[N][C], const bool keep[N][C], fusecc_bf16 y[N][C])
{
#pragma fuse kernel(masked_ln) parallel(n)
	for (int n = 0; n < N; n++) {
		float cnt = 0.0f, mean = 0.0f, m2 = 0.0f;
		for (int c = 0; c < C; c++) {
			if (!keep[n][c]) continue;
			const float v = fusecc_bf16_to_float(x[n][c]);
			cnt += 1.0f;
			const float delta = v - mean;
			mean += delta / cnt;
			m2 += delta * (v - mean);
		}
		const float rstd = cnt > 0.0f ? 1.0f / sqrtf(m2 / cnt + eps) : 0.0f;
		for (int c = 0; c < C; c++)
			y[n][c] = fusecc_float_to_bf16(keep[n][c] ? (fusecc_bf16_to_float(x[n][c]) - mean) * rstd : 0.0f);
	}
}
