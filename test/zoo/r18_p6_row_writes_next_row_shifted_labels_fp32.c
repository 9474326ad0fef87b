/* PROBE. Next-token shift done on the output side: the softmax of row r is written to row
 * r + 1 of the output (row 0 zeroed by the caller's loop in the region), a row loop whose body
 * writes a different row. fp32. */
#include <math.h>

void shifted_softmax(int R, int C, const float x[R][C], float y[R + 1][C])
{
#pragma fuse kernel(shifted_softmax) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf(x[r][c] - m);
		for (int c = 0; c < C; c++) y[r + 1][c] = expf(x[r][c] - m) / s;
	}
}
