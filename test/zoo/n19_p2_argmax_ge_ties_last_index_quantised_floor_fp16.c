/* PROBE: argmax with >= (ties go to the LAST index) over quantised scores floor(x), so ties are common;
 * plus the max itself and the count of elements equal... just the index and value. fp16 input. */
#include <math.h>
#include <stdint.h>
void argmax_last(int R, int C, const _Float16 x[R][C], int64_t idx[R], float val[R])
{
#pragma fuse kernel(argmax_last)
	for (int r = 0; r < R; r++) {
		float best = -INFINITY;
		int64_t bi = -1;
		for (int c = 0; c < C; c++) {
			const float q = floorf((float)x[r][c]);
			if (q >= best) { best = q; bi = c; }
		}
		idx[r] = bi;
		val[r] = best;
	}
}
