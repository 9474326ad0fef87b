/* Probe: a file-scope scratch row (static float buf[4096]) used by two kernels in one function:
 * a softmax writes its exponentials there, then a second region reads the same buffer name for
 * an LSE of another input. A global is shared by all rows: racy if rows run in parallel. */
#include <math.h>

static float buf[4096];

void two_kernels(int R, int C, const float x[R][C], const float y[R][C], float p[R][C], float lse[R])
{
#pragma fuse kernel(sm) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) { buf[c] = expf(x[r][c] - m); s += buf[c]; }
		for (int c = 0; c < C; c++) p[r][c] = buf[c] / s;
	}
#pragma fuse kernel(lse) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) { buf[c] = y[r][c]; m = fmaxf(m, buf[c]); }
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf(buf[c] - m);
		lse[r] = m + logf(s);
	}
}
