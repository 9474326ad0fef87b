/* Log-sum-exp of each row with the loops counting down and the maximum kept by an `if`
 * (`for (c = C - 1; c >= 0; c--) if (x > mx) mx = x;`), as someone used to
 * decrementing loops writes it; fp16 scores, float results. */
#include <math.h>

void lse_down(int R, int C, const _Float16 x[R][C], float lse[R])
{
#pragma fuse kernel(lse_down) parallel(r)
	for (int r = 0; r < R; r++) {
		float mx = -INFINITY;
		for (int c = C - 1; c >= 0; c--)
			if ((float)x[r][c] > mx)
				mx = (float)x[r][c];
		float s = 0.0f;
		for (int c = C - 1; c >= 0; c--)
			s += expf((float)x[r][c] - mx);
		lse[r] = mx + logf(s);
	}
}
