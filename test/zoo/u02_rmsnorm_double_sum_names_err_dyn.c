/* u02: ggml-style rms_norm (ggml_compute_forward_rms_norm_f32): the sum of squares in a
 * `double` (ggml_float), then `scale = 1.0f / sqrtf(mean + eps)`, fp32 x[n][k].
 * Style: the rows `n` and the row length `k` (BLAS names), eps named `err`, a row offset
 * argument `dyn` and the output `smem`: names a launcher declares for itself. */
#include <math.h>

void rms_norm_f64sum(int n, int k, int dyn, float err, const float *x, float *smem)
{
#pragma fuse kernel(rms_norm_f64sum) parallel(i01)
	for (int i01 = 0; i01 < n; i01++) {
		const float *row = x + (long)(i01 + dyn) * k;
		double sum = 0.0;
		for (int i00 = 0; i00 < k; i00++)
			sum += (double)(row[i00] * row[i00]);
		const float mean = (float)(sum / k);
		const float scale = 1.0f / sqrtf(mean + err);
		for (int i00 = 0; i00 < k; i00++)
			smem[(long)i01 * k + i00] = row[i00] * scale;
	}
}
