/* probe: a count seeded from a parameter array split-k */
#include <math.h>
void p56(int R, int C, const int base[R], const float x[R][C], int cnt[R], float mx[R])
{
#pragma fuse kernel(p56) parallel(r) splitk(c)
	for (int r = 0; r < R; r++) {
		int n = base[r];
		float m = -INFINITY;
		for (int c = 0; c < C; c++) { if (x[r][c] > 0) n++; m = fmaxf(m, x[r][c]); }
		cnt[r] = n;
		mx[r] = m;
	}
}
