/* LayerNorm of the kept tokens only (`if (!keep[t]) continue;`), two-pass: the mean
 * finished in place (`mu /= C;`) between its loop and the variance's, the mean and the
 * reciprocal std saved for the backward pass as soon as each is known, as a training
 * framework's CPU reference writes it; bf16 activations, float statistics. */
#include <math.h>
#include "fusecc.h"

void ln_fwd_masked(int T, int C, const unsigned char keep[T], const fusecc_bf16 x[T][C], const float w[C], const float b[C],
                   fusecc_bf16 y[T][C], float mean[T], float rstd[T])
{
#pragma fuse kernel(ln_fwd_masked) parallel(t)
	for (int t = 0; t < T; t++) {
		if (!keep[t])
			continue;
		float mu = 0.0f;
		for (int c = 0; c < C; c++)
			mu += fusecc_bf16_to_float(x[t][c]);
		mu /= C;
		mean[t] = mu;
		float var = 0.0f;
		for (int c = 0; c < C; c++) {
			float d = fusecc_bf16_to_float(x[t][c]) - mu;
			var += d * d;
		}
		var /= C;
		const float rs = 1.0f / sqrtf(var + 1e-5f);
		rstd[t] = rs;
		for (int c = 0; c < C; c++)
			y[t][c] = fusecc_float_to_bf16((fusecc_bf16_to_float(x[t][c]) - mu) * rs * w[c] + b[c]);
	}
}
