/* PROBE: the C idiom for counting an unsigned index down to zero, `for (unsigned c = C; c-- > 0;)`,
 * in an LSE (an HPC programmer avoiding signed loops). */
#include <math.h>

void lse_countdown(unsigned R, unsigned C, const float x[R][C], float lse[R])
{
#pragma fuse kernel(lse_countdown) parallel(r)
	for (unsigned r = 0; r < R; r++) {
		float m = -INFINITY;
		for (unsigned c = C; c-- > 0;) m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (unsigned c = C; c-- > 0;) s += expf(x[r][c] - m);
		lse[r] = m + logf(s);
	}
}
