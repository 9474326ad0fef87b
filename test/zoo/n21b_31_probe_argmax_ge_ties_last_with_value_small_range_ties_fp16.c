/* Probe: argmax with >= (the last maximum wins) and its value; fp16 inputs of a small range
 * make ties frequent. int64 output. */
#include <math.h>
#include <stdint.h>

void argmax_last(int R, int C, const _Float16 x[R][C], int64_t idx[R], float val[R])
{
#pragma fuse kernel(argmax_last) parallel(r)
	for (int r = 0; r < R; r++) {
		float bv = -INFINITY;
		int64_t bi = -1;
		for (int c = 0; c < C; c++)
			if ((float)x[r][c] >= bv) {
				bv = (float)x[r][c];
				bi = c;
			}
		idx[r] = bi;
		val[r] = bv;
	}
}
