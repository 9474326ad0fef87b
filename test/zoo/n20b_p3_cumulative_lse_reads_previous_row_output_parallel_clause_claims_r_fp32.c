/* PROBE: a running log-partition over rows (out[r] = lse of row r plus out[r - 1]), a prefix
 * across rows; the parallel clause wrongly names r. A fuser must not run rows concurrently. */
#include <math.h>

void cumulative_lse(int R, int C, const float x[R][C], float out[R])
{
#pragma fuse kernel(cumulative_lse) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf(x[r][c] - m);
		out[r] = m + logf(s) + (r > 0 ? out[r - 1] : 0.0f);
	}
}
