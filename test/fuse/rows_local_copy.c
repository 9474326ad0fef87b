/* rows_local_copy.c: a row reduction that keeps a scaled copy of its row in a local
 * array of run-time size (float row[C]) and reads it in every loop after: the fuser fuses
 * the max and the sum over the copy (split into chunks for the GPU's CTA per row), and the
 * normalising loop after the merge reads the copy again. The GPU keeps the copy in shared
 * memory when the row fits (decided at launch), else in a workspace in global memory:
 * sizes below and above what a CTA may have. */
#include <math.h>

void softmax_scaled_copy(int R, int C, float scale, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(softmax_scaled_copy) parallel(r)
	for (int r = 0; r < R; r++) {
		float row[C];
		for (int c = 0; c < C; c++)
			row[c] = x[r][c] * scale;
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			m = fmaxf(m, row[c]);
		float l = 0.0f;
		for (int c = 0; c < C; c++)
			l += expf(row[c] - m);
		for (int c = 0; c < C; c++)
			y[r][c] = expf(row[c] - m) / l;
	}
}
