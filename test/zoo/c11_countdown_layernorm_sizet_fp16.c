/* c11_countdown_layernorm_sizet_fp16.c: LayerNorm by a systems programmer: size_t
 * everywhere and the unsigned count-down idiom `for (size_t c = C; c-- > 0;)` for the two
 * sums (it never compares below zero), mean and variance as two passes.
 * Style: fp16 in/out, fp32 gamma/beta, eps a parameter. */
#include <math.h>
#include <stddef.h>

void layernorm_down(size_t R, size_t C, float eps, const _Float16 x[R][C],
		    const float gamma[C], const float beta[C], _Float16 y[R][C])
{
#pragma fuse kernel(layernorm_down) parallel(r)
	for (size_t r = 0; r < R; r++) {
		float sum = 0.0f;
		for (size_t c = C; c-- > 0;)
			sum += (float)x[r][c];
		const float mean = sum / (float)C;
		float var = 0.0f;
		for (size_t c = C; c-- > 0;) {
			const float dlt = (float)x[r][c] - mean;
			var += dlt * dlt;
		}
		const float rstd = 1.0f / sqrtf(var / (float)C + eps);
		for (size_t c = C; c-- > 0;)
			y[r][c] = (_Float16)(((float)x[r][c] - mean) * rstd * gamma[c] + beta[c]);
	}
}
