/* row_layernorm_fwd_stats.c: LayerNorm forward as torch.native_layer_norm computes it for
 * training: y = (x - mean) * rstd * w + b, and the row's mean and rstd saved for the
 * backward pass. fp32, run-time C.
 * Style: the textbook two passes, mean += x / C (as x.mean() reads), then the centred
 * square through a local, d = x - mean; var += d * d; biased variance divided after the
 * loop; splitk(c) (a few long rows). fusecc accumulates sum (x - k)^2, sum (x - k) and
 * the count, k = x[r][0], and recombines var = S2 + 2 (k - mean) S1 + (k - mean)^2 n after
 * the pass (docs/repair-terms.md, on numerics). Written for the separable-sums work. */
#include <math.h>

void layernorm_fwd(int R, int C, float eps, const float x[R][C], const float w[C], const float b[C],
		   float y[R][C], float mean_out[R], float rstd_out[R])
{
#pragma fuse kernel(layernorm_fwd) parallel(r) splitk(c)
	for (int r = 0; r < R; r++) {
		float mean = 0.0f;
		for (int c = 0; c < C; c++)
			mean += x[r][c] / C;
		float var = 0.0f;
		for (int c = 0; c < C; c++) {
			float d = x[r][c] - mean;
			var += d * d;
		}
		var = var / C;
		float rstd = 1.0f / sqrtf(var + eps);
		mean_out[r] = mean;
		rstd_out[r] = rstd;
		for (int c = 0; c < C; c++)
			y[r][c] = (x[r][c] - mean) * rstd * w[c] + b[c];
	}
}
