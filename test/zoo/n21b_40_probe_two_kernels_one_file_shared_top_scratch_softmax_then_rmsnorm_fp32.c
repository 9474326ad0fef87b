/* Probe: two regions in one function sharing a scratch row declared at the top (C89), the
 * first a softmax, the second an RMSNorm of its output. */
#include <math.h>

void two_regions(int R, int C, const float x[R][C], float p[R][C], float y[R][C])
{
	float tmp[C];
	float m, s;
	int r, c;
#pragma fuse kernel(sm) parallel(r)
	for (r = 0; r < R; r++) {
		m = -INFINITY;
		for (c = 0; c < C; c++) {
			tmp[c] = x[r][c];
			m = fmaxf(m, tmp[c]);
		}
		s = 0.0f;
		for (c = 0; c < C; c++) s += expf(tmp[c] - m);
		for (c = 0; c < C; c++) p[r][c] = expf(tmp[c] - m) / s;
	}
#pragma fuse kernel(rms) parallel(r)
	for (r = 0; r < R; r++) {
		s = 0.0f;
		for (c = 0; c < C; c++) {
			tmp[c] = p[r][c] * (float)C;
			s += tmp[c] * tmp[c];
		}
		m = 1.0f / sqrtf(s / C + 1e-6f);
		for (c = 0; c < C; c++) y[r][c] = tmp[c] * m;
	}
}
