/* Probe: one scratch row used for two phases of a LayerNorm: tmp[c] = x - mean (for the variance),
 * then overwritten with the normalised value, then copied out with the affine. fp16 in/out. */
#include <math.h>

void ln_scratch(int R, int C, float eps, const _Float16 x[R][C], const float w[C], const float bias[C], _Float16 y[R][C])
{
#pragma fuse kernel(ln_scratch) parallel(r)
	for (int r = 0; r < R; r++) {
		float tmp[C];
		float mean = 0.0f;
		for (int c = 0; c < C; c++) mean += (float)x[r][c];
		mean /= C;
		float var = 0.0f;
		for (int c = 0; c < C; c++) { tmp[c] = (float)x[r][c] - mean; var += tmp[c] * tmp[c]; }
		const float rstd = 1.0f / sqrtf(var / C + eps);
		for (int c = 0; c < C; c++) tmp[c] = tmp[c] * rstd;
		for (int c = 0; c < C; c++) y[r][c] = (_Float16)(tmp[c] * w[c] + bias[c]);
	}
}
