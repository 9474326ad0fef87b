/* row_layernorm_linear_fp32.c: a pre-norm projection, y = LayerNorm(x) @ W, the way a
 * transformer block starts (nn.Linear(nn.LayerNorm(x))): fp32, run-time K (the model
 * width), a constant output width #define DOUT 64.
 * Style: two-pass statistics (mean += x / K; var += (x - mean)^2 / K), rstd as a local,
 * then the normalised element xn = (x - mean) * rstd * g + b as a local inside the k loop
 * and acc[DOUT] = {0} accumulated k-outer; rolling(k). fusecc expands both sums: the
 * variance into sums of (x - x0)^2, (x - x0) and 1, and the projection into sums of
 * (x - x0) * g * w, g * w and b * w (one array accumulator each), recombined with mean
 * and rstd after the pass: one pass over x with nothing repaired. Written for the
 * separable-sums work. */
#include <math.h>
#define DOUT 64
void ln_linear(int R, int K, float eps, const float x[R][K], const float g[K], const float b[K],
	       const float w[K][DOUT], float y[R][DOUT])
{
#pragma fuse kernel(ln_linear) parallel(r) rolling(k)
	for (int r = 0; r < R; r++) {
		float mean = 0.0f;
		for (int k = 0; k < K; k++)
			mean += x[r][k] / K;
		float var = 0.0f;
		for (int k = 0; k < K; k++)
			var += (x[r][k] - mean) * (x[r][k] - mean) / K;
		const float rstd = 1.0f / sqrtf(var + eps);
		float acc[DOUT] = {0};
		for (int k = 0; k < K; k++) {
			const float xn = (x[r][k] - mean) * rstd * g[k] + b[k];
			for (int n = 0; n < DOUT; n++)
				acc[n] += xn * w[k][n];
		}
		for (int n = 0; n < DOUT; n++)
			y[r][n] = acc[n];
	}
}
