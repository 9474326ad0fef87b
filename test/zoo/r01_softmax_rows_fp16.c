/* Row-wise safe softmax y[r][c] = exp(x[r][c] - max_r) / sum_r, fp16 in and out.
 * Style: plain three-pass port of torch.softmax(x, dim=-1); fmaxf + expf; the exponential is
 * recomputed in the write pass; rolling(c) to fuse the max and sum passes (online softmax). */
#include <math.h>

void softmax_rows(int R, int C, const _Float16 x[R][C], _Float16 y[R][C])
{
#pragma fuse kernel(softmax_rows) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			m = fmaxf(m, (float)x[r][c]);
		float sum = 0.0f;
		for (int c = 0; c < C; c++)
			sum += expf((float)x[r][c] - m);
		for (int c = 0; c < C; c++)
			y[r][c] = (_Float16)(expf((float)x[r][c] - m) / sum);
	}
}
