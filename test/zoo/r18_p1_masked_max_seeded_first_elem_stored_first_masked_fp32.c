/* PROBE. A masked softmax by someone who seeds the max with the row's first element and then
 * skips masked columns (uint8, 0 = masked) -- the seed is taken even when column 0 is masked,
 * so the stored row max may be a masked value; C's answer is what it is. fp32. */
#include <math.h>
#include <stdint.h>

void masked_softmax_seed0(int R, int C, const uint8_t keep[R][C], const float x[R][C], float y[R][C], float rowmax[R])
{
#pragma fuse kernel(masked_softmax_seed0) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = x[r][0];
		for (int c = 0; c < C; c++) {
			if (!keep[r][c]) continue;
			if (x[r][c] > m) m = x[r][c];
		}
		float s = 0.0f;
		for (int c = 0; c < C; c++)
			if (keep[r][c]) s += expf(x[r][c] - m);
		for (int c = 0; c < C; c++) y[r][c] = keep[r][c] ? expf(x[r][c] - m) / s : 0.0f;
		rowmax[r] = m;
	}
}
