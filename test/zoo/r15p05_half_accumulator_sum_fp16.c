/* Probe: a _Float16 accumulator (someone keeping everything in half): the sum rounds at
 * every step in C; a fused / reordered sum differs. */
#include <math.h>

void softmax_half_acc(int R, int C, const _Float16 x[R][C], _Float16 y[R][C])
{
#pragma fuse kernel(softmax_half_acc) parallel(r)
	for (int r = 0; r < R; r++) {
		_Float16 m = (_Float16)-INFINITY;
		for (int c = 0; c < C; c++) m = x[r][c] > m ? x[r][c] : m;
		_Float16 s = 0;
		for (int c = 0; c < C; c++) s += (_Float16)expf((float)(x[r][c] - m));
		for (int c = 0; c < C; c++) y[r][c] = (_Float16)expf((float)(x[r][c] - m)) / s;
	}
}
