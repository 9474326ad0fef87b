/* row_softmax_inplace_exp_written_fp16.c: in-place softmax over the last dim of an fp16
 * buffer (x.softmax_(-1)): one non-const array read and written; the exponentials are written
 * back into x (rounded to fp16) and summed, then a second loop normalises x in place with a
 * reciprocal computed between the loops. rolling(c), parallel(r). */
#include <math.h>

void softmax_inplace(int R, int C, _Float16 x[R][C])
{
#pragma fuse kernel(softmax_inplace) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			m = fmaxf(m, (float)x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) {
			float e = expf((float)x[r][c] - m);
			x[r][c] = (_Float16)e;
			s += e;
		}
		float inv = 1.0f / s;
		for (int c = 0; c < C; c++)
			x[r][c] = (_Float16)((float)x[r][c] * inv);
	}
}
