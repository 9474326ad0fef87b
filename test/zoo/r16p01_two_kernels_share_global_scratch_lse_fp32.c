/* PROBE: two regions in one file sharing a file-scope scratch array: the first stores each row's
 * LSE into g_lse, the second reads it to write log-probs (a C programmer avoiding a parameter). */
#include <math.h>

static float g_lse[4096];

void lse_then_logp(int R, int C, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(lse_pass) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf(x[r][c] - m);
		g_lse[r] = m + logf(s);
	}
#pragma fuse kernel(logp_pass) parallel(r)
	for (int r = 0; r < R; r++)
		for (int c = 0; c < C; c++) y[r][c] = x[r][c] - g_lse[r];
}
