/* "Half everything": a port where every local is _Float16 too (max, sum, the exponentials),
 * as someone compiling for an fp16-only DSP writes it; the sum rounds to fp16 at each step. */
#include <math.h>

void softmax_half(int R, int C, const _Float16 x[R][C], _Float16 y[R][C])
{
#pragma fuse kernel(softmax_half) parallel(r)
	for (int r = 0; r < R; r++) {
		_Float16 mx = x[r][0];
		for (int c = 1; c < C; c++)
			if (x[r][c] > mx) mx = x[r][c];
		_Float16 sum = 0;
		for (int c = 0; c < C; c++) sum += (_Float16)expf((float)(x[r][c] - mx));
		for (int c = 0; c < C; c++) y[r][c] = (_Float16)expf((float)(x[r][c] - mx)) / sum;
	}
}
