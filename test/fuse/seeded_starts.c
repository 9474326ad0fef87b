/* Accumulators that do not start at their identity: a sum starting at a constant under
 * split-k (each chunk adding the 1.5 again was a wrong result), a sum seeded with a
 * value of the max (gpt-oss's sink), and a max seeded with an earlier loop's result (set
 * between the loops, it was evaluated again at every step). Each starts at the identity
 * in the fused program, the initial value applied after its loop. */
#include <math.h>

void seeded_starts(int R, int C, const float x[R][C], const float z[R][C], const float sink[R], float y[R])
{
#pragma fuse kernel(seeded_starts) parallel(r) splitk(c)
	for (int r = 0; r < R; r++) {
		float m = sink[r];
		for (int c = 0; c < C; c++)
			m = fmaxf(m, x[r][c]);
		float l = expf(sink[r] - m);
		float t = 1.5f;
		for (int c = 0; c < C; c++) {
			l += expf(x[r][c] - m);
			t += z[r][c];
		}
		float w = m - 1.0f;
		for (int c = 0; c < C; c++)
			w = fmaxf(w, z[r][c] + t);
		y[r] = l + w;
	}
}
