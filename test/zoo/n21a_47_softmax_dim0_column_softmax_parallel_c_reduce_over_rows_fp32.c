/* torch.softmax(x, dim=0) ported literally: for each column, the max and the sum run down the
 * rows (strided reads x[r][c]); parallel over the columns. */
#include <math.h>

void softmax_dim0(int R, int C, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(softmax_dim0) parallel(c)
	for (int c = 0; c < C; c++) {
		float m = -INFINITY;
		for (int r = 0; r < R; r++) m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (int r = 0; r < R; r++) s += expf(x[r][c] - m);
		for (int r = 0; r < R; r++) y[r][c] = expf(x[r][c] - m) / s;
	}
}
