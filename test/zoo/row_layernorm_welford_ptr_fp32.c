/* row_layernorm_welford_ptr_fp32.c: LayerNorm with Welford's online mean and variance written
 * by hand, as PyTorch's and apex's kernels compute them (cnt += 1; delta = x - mean;
 * mean += delta / cnt; m2 += delta * (x - mean)), then var = m2 / cnt; flat fp32 pointers,
 * affine weight and bias, outputs y, mean and rstd. rolling(c), parallel(r). */
#include <math.h>

void layernorm_welford(int R, int C, float eps, const float *x, const float *w, const float *b,
		       float *y, float *mean_out, float *rstd_out)
{
#pragma fuse kernel(layernorm_welford) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float mean = 0.0f, m2 = 0.0f, cnt = 0.0f;
		for (int c = 0; c < C; c++) {
			float xv = x[r * C + c];
			cnt += 1.0f;
			float delta = xv - mean;
			mean += delta / cnt;
			m2 += delta * (xv - mean);
		}
		float rstd = 1.0f / sqrtf(m2 / cnt + eps);
		mean_out[r] = mean;
		rstd_out[r] = rstd;
		for (int c = 0; c < C; c++)
			y[r * C + c] = (x[r * C + c] - mean) * rstd * w[c] + b[c];
	}
}
