/* Probe: a data-dependent break: the log-prob of a sequence summed until the first token whose
 * score is below a threshold (a sentinel), then normalised. */
#include <math.h>

void prefix_lse(int R, int C, float stop, const float x[R][C], float out[R])
{
#pragma fuse kernel(prefix_lse) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) {
			if (x[r][c] < stop) break;
			s += expf(x[r][c] - m);
		}
		out[r] = m + logf(s);
	}
}
