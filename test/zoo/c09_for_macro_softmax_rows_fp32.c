/* c09_for_macro_softmax_rows_fp32.c: a row softmax from a numerics library whose every loop
 * goes through one macro, `FOR(i, n)`, the region's loop included (the pragma sits right
 * above `FOR(r, R)`).
 * Style: fp32, sizes as int parameters, -INFINITY seed, fmaxf, three loops per row. */
#include <math.h>

#define FOR(i, n) for (int i = 0; i < (n); ++i)

void softmax_rows(int R, int C, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(softmax_rows) parallel(r)
	FOR(r, R) {
		float m = -INFINITY;
		FOR(c, C) m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		FOR(c, C) s += expf(x[r][c] - m);
		const float inv = 1.0f / s;
		FOR(c, C) y[r][c] = expf(x[r][c] - m) * inv;
	}
}
