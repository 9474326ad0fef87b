/* PROBE. LSE with the max initialised to 0 (a common bug: correct only if some logit >= 0) and
 * the sum seeded from a parameter (a bias term exp(b0 - m) counted once, then the elements);
 * stores the max too. Run with range=30 and rows of length 1. fp32. */
#include <math.h>

void lse_seeded(int R, int C, float b0, const float x[R][C], float mx_out[R], float lse[R])
{
#pragma fuse kernel(lse_seeded) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = 0.0f;
		for (int c = 0; c < C; c++)
			if (x[r][c] > m) m = x[r][c];
		float s = expf(b0 - m);
		for (int c = 0; c < C; c++) s += expf(x[r][c] - m);
		mx_out[r] = m;
		lse[r] = m + logf(s);
	}
}
