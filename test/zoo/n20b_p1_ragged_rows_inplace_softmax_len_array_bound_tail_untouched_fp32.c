/* PROBE: ragged rows softmaxed in place, row r's length read from len[r] (a loop bound that
 * varies per row); the elements past len[r] must stay as they were (the tensor is padded). */
#include <math.h>
#include <stdint.h>

void ragged_softmax_inplace(int R, int C, const int32_t len[R], float x[R][C])
{
#pragma fuse kernel(ragged_softmax) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < len[r]; c++) m = fmaxf(m, x[r][c]);
		for (int c = 0; c < len[r]; c++) x[r][c] = x[r][c] - m;
		float s = 0.0f;
		for (int c = 0; c < len[r]; c++) s += expf(x[r][c]);
		const float ls = logf(s);
		for (int c = 0; c < len[r]; c++) x[r][c] = expf(x[r][c] - ls);
	}
}
