/* Probe: log-softmax in place the way a numpy user writes it: x -= max (stored), then the sum of
 * exp(x) reads the shifted x, then x -= log(sum) reads it again. */
#include <math.h>

void logsoftmax_inplace(int R, int C, float x[R][C])
{
#pragma fuse kernel(lsm_inplace) parallel(r)
	for (int r = 0; r < R; r++) {
		float mx = -INFINITY;
		for (int c = 0; c < C; c++) if (x[r][c] > mx) mx = x[r][c];
		for (int c = 0; c < C; c++) x[r][c] = x[r][c] - mx;
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf(x[r][c]);
		const float ls = logf(s);
		for (int c = 0; c < C; c++) x[r][c] -= ls;
	}
}
