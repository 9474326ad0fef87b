/* PROBE: a softmax whose sum is a _Float16 accumulator (a careless half port); the fused C
 * chooses split-k over long rows by itself, which reorders an fp16 sum. */
#include <math.h>

void softmax_half_sum(int R, int C, const _Float16 x[R][C], _Float16 y[R][C])
{
#pragma fuse kernel(softmax_half_sum) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, (float)x[r][c]);
		_Float16 s = (_Float16)0.0f;
		for (int c = 0; c < C; c++) s += (_Float16)expf((float)x[r][c] - m);
		for (int c = 0; c < C; c++) y[r][c] = (_Float16)(expf((float)x[r][c] - m) / (float)s);
	}
}
