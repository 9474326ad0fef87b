/* Scores stored over a two-level key loop (a block list, BigBird's random blocks) with a
 * run-time block size: fusecc walks the nest as one loop over the keys, and the row's
 * subscript becomes a division and a remainder by blk. One error, at the store, in the
 * input's names. */
#include <math.h>
void block_list(int N, int R, int blk, const float q[N][64], const float k[N][64], const int list[N][R], float out[N])
{
#pragma fuse kernel(block_list) parallel(i)
	for (int i = 0; i < N; i++) {
		float sc[R * blk];
		float mx = -INFINITY;
		for (int r = 0; r < R; r++)
			for (int jj = 0; jj < blk; jj++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += q[i][d] * k[list[i][r] * blk + jj][d];
				sc[r * blk + jj] = s;
				mx = fmaxf(mx, s);
			}
		float sum = 0.0f;
		for (int r = 0; r < R; r++)
			for (int jj = 0; jj < blk; jj++)
				sum += expf(sc[r * blk + jj] - mx);
		out[i] = mx + logf(sum);
	}
}
