/* do { } while loops (expected refused per docs: check the message). */
#include <math.h>
void rms_do(int R, int C, const float x[R][C], const float w[C], float y[R][C])
{
#pragma fuse kernel(rms_do) parallel(r)
	for (int r = 0; r < R; r++) {
		float ss = 0;
		int c = 0;
		do { ss += x[r][c] * x[r][c]; c++; } while (c < C);
		float k = 1.0f / sqrtf(ss / C + 1e-6f);
		for (int c2 = 0; c2 < C; c2++) y[r][c2] = x[r][c2] * k * w[c2];
	}
}
