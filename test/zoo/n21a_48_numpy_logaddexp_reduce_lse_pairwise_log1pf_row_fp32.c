/* np.logaddexp.reduce(x, axis=-1) written out: a running log-sum-exp updated pair by pair with
 * log1pf, no separate max pass (a numpy user's streaming LSE). */
#include <math.h>

void lae_reduce(int R, int C, const float x[R][C], float lse[R])
{
#pragma fuse kernel(lae_reduce) parallel(r)
	for (int r = 0; r < R; r++) {
		float acc = -INFINITY;
		for (int c = 0; c < C; c++) {
			const float a = acc > x[r][c] ? acc : x[r][c];
			const float b = acc > x[r][c] ? x[r][c] : acc;
			acc = a + log1pf(expf(b - a));
		}
		lse[r] = acc;
	}
}
