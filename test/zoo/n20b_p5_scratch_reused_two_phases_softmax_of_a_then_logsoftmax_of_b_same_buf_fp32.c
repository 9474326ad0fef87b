/* PROBE: one scratch row used by two phases of a row: first exp(a - ma) for softmax(a), then
 * overwritten with b - mb for log_softmax(b); both results written. */
#include <math.h>

void two_phase_scratch(int R, int C, const float a[R][C], const float b[R][C], float pa[R][C], float lb[R][C])
{
#pragma fuse kernel(two_phase) parallel(r)
	for (int r = 0; r < R; r++) {
		float buf[C];
		float ma = -INFINITY;
		for (int c = 0; c < C; c++) ma = fmaxf(ma, a[r][c]);
		float sa = 0.0f;
		for (int c = 0; c < C; c++) { buf[c] = expf(a[r][c] - ma); sa += buf[c]; }
		for (int c = 0; c < C; c++) pa[r][c] = buf[c] / sa;
		float mb = -INFINITY;
		for (int c = 0; c < C; c++) mb = fmaxf(mb, b[r][c]);
		for (int c = 0; c < C; c++) buf[c] = b[r][c] - mb;
		float sb = 0.0f;
		for (int c = 0; c < C; c++) sb += expf(buf[c]);
		for (int c = 0; c < C; c++) lb[r][c] = buf[c] - logf(sb);
	}
}
