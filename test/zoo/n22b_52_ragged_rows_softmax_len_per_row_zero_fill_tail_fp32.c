/* Softmax over ragged rows stored padded to L (a set-transformer / pointer-network port): row r
 * has len[r] valid entries, the tail is written as zeros. */
#include <math.h>
#include <stdint.h>

void ragged_softmax(int R, int L, const float x[R][L], const int32_t len[R], float y[R][L])
{
#pragma fuse kernel(ragged_softmax) parallel(r)
	for (int r = 0; r < R; r++) {
		const int n = len[r];
		float m = -INFINITY;
		for (int c = 0; c < n; c++)
			m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < n; c++)
			s += expf(x[r][c] - m);
		for (int c = 0; c < n; c++)
			y[r][c] = expf(x[r][c] - m) / s;
		for (int c = n; c < L; c++)
			y[r][c] = 0.0f;
	}
}
