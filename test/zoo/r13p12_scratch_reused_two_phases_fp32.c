/* Triage round 13 probe (kept as a regression test): one scratch row buf[C] reused: first for exp(x - m) (softmax), then overwritten with
 * x*x for an RMS of the same row; both results stored. */
#include <math.h>

void reuse(int R, int C, const float x[R][C], float y[R][C], float rms[R])
{
#pragma fuse kernel(reuse) parallel(r)
	for (int r = 0; r < R; r++) {
		float buf[C];
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) { buf[c] = expf(x[r][c] - m); s += buf[c]; }
		for (int c = 0; c < C; c++) y[r][c] = buf[c] / s;
		for (int c = 0; c < C; c++) buf[c] = x[r][c] * x[r][c];
		float q = 0.0f;
		for (int c = 0; c < C; c++) q += buf[c];
		rms[r] = sqrtf(q / (float)C);
	}
}
