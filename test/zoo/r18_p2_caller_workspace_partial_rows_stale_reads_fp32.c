/* PROBE. One scratch row passed by the caller (workspace) and reused by every row; each row
 * writes only its first len[r] entries but the sum reads all C, so a row reads the previous
 * rows' stale values (a bug a C programmer could write; C's answer depends on row order). */
#include <math.h>

void stale_scratch(int R, int C, const int len[R], const float x[R][C], float buf[C], float out[R])
{
#pragma fuse kernel(stale_scratch) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < len[r]; c++) m = fmaxf(m, x[r][c]);
		for (int c = 0; c < len[r]; c++) buf[c] = expf(x[r][c] - m);
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += buf[c];
		out[r] = m + logf(s);
	}
}
