/* PROBE: max written with a ternary `>` (NaN-propagating differently from fmaxf) and an argmax in the
 * same loop seeded with x[r][0]; softmax probability of the top; a row with ties at range=1. */
#include <math.h>

void top_prob_tern(int R, int C, const float x[R][C], int idx[R], float prob[R])
{
#pragma fuse kernel(top_prob_tern) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = x[r][0];
		int a = 0;
		for (int c = 0; c < C; c++) {
			if (x[r][c] > m) { m = x[r][c]; a = c; }
		}
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf(x[r][c] - m);
		idx[r] = a;
		prob[r] = 1.0f / s;
	}
}
