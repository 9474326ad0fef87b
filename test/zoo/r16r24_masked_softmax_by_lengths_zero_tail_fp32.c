/* Softmax over each row's first len[r] entries (padded sequences), zeros written past the length:
 * a masked_softmax(x, lengths) as in d2l.ai, int32 lengths, fp32. */
#include <math.h>

void masked_softmax(int R, int C, const float x[R][C], const int len[R], float y[R][C])
{
#pragma fuse kernel(masked_softmax) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < len[r]; c++) m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < len[r]; c++) s += expf(x[r][c] - m);
		for (int c = 0; c < C; c++) y[r][c] = c < len[r] ? expf(x[r][c] - m) / s : 0.0f;
	}
}
