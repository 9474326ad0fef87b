/* row_softmax_seeded_max_fp32.c: softmax over rows, fp32, the max seeded with the first element (float mx = x[r][0]; c from 1), sum and stores recomputing exp; no strategy clause. */
#include <math.h>
void softmax_rows(int R, int C, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(softmax_rows) parallel(r)
	for (int r = 0; r < R; r++) {
		float mx = x[r][0];
		for (int c = 1; c < C; c++)
			mx = fmaxf(mx, x[r][c]);
		float s = 0;
		for (int c = 0; c < C; c++)
			s += expf(x[r][c] - mx);
		for (int c = 0; c < C; c++)
			y[r][c] = expf(x[r][c] - mx) / s;
	}
}
