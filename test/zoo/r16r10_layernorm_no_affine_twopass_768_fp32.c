/* nn.LayerNorm(768, elementwise_affine=False) written by a textbook student: mean pass, variance
 * pass (biased), then normalise; fp32. */
#include <math.h>

void ln_noaffine(int R, const float x[R][768], float y[R][768])
{
#pragma fuse kernel(ln_noaffine) parallel(r)
	for (int r = 0; r < R; r++) {
		float mean = 0.0f;
		for (int c = 0; c < 768; c++) mean += x[r][c];
		mean = mean / 768.0f;
		float var = 0.0f;
		for (int c = 0; c < 768; c++) var += (x[r][c] - mean) * (x[r][c] - mean);
		var = var / 768.0f;
		const float rstd = 1.0f / sqrtf(var + 1e-5f);
		for (int c = 0; c < 768; c++) y[r][c] = (x[r][c] - mean) * rstd;
	}
}
