/* __auto_type locals (GNU C) in an RMSNorm */
#include <math.h>
void rms_auto(int R, int C, const float x[R][C], const float w[C], float y[R][C])
{
#pragma fuse kernel(rms_auto) parallel(r)
	for (int r = 0; r < R; r++) {
		__auto_type ss = 0.0f;
		for (int c = 0; c < C; c++) ss += x[r][c] * x[r][c];
		__auto_type inv = 1.0f / sqrtf(ss / C + 1e-6f);
		for (int c = 0; c < C; c++) y[r][c] = x[r][c] * inv * w[c];
	}
}
