/* A C programmer's in-place LayerNorm: the row normalised into x itself, then the affine
 * applied in a second in-place loop. */
#include <math.h>

void ln_inplace(int R, int C, float eps, float x[R][C], const float g[C], const float b[C])
{
#pragma fuse kernel(ln_inplace) parallel(r)
	for (int r = 0; r < R; r++) {
		float mean = 0.0f;
		for (int c = 0; c < C; c++) mean += x[r][c];
		mean /= (float)C;
		float var = 0.0f;
		for (int c = 0; c < C; c++) var += (x[r][c] - mean) * (x[r][c] - mean);
		var /= (float)C;
		const float rs = 1.0f / sqrtf(var + eps);
		for (int c = 0; c < C; c++) x[r][c] = (x[r][c] - mean) * rs;
		for (int c = 0; c < C; c++) x[r][c] = x[r][c] * g[c] + b[c];
	}
}
