/* Probe (natural): one-pass LayerNorm with the usual clamp `if (var < 0) var = 0;` after
 * E[x^2] - mean^2, rows with a large offset (cancellation), fp16. */
#include <math.h>

void ln_clamp(int R, int C, float eps, const _Float16 x[R][C], _Float16 y[R][C])
{
#pragma fuse kernel(ln_clamp) parallel(r)
	for (int r = 0; r < R; r++) {
		float s = 0.0f, ss = 0.0f;
		for (int c = 0; c < C; c++) { float v = (float)x[r][c]; s += v; ss += v * v; }
		float mean = s / C;
		float var = ss / C - mean * mean;
		if (var < 0.0f) var = 0.0f;
		float rstd = 1.0f / sqrtf(var + eps);
		for (int c = 0; c < C; c++) y[r][c] = (_Float16)(((float)x[r][c] - mean) * rstd);
	}
}
