/* Probe: a do-while loop for the sum (a C programmer's habit when C >= 1 is known). */
#include <math.h>

void rms_do(int T, int C, const float x[T][C], float y[T][C])
{
#pragma fuse kernel(rms_do) parallel(t)
	for (int t = 0; t < T; t++) {
		float ss = 0.0f;
		int c = 0;
		do {
			ss += x[t][c] * x[t][c];
			c++;
		} while (c < C);
		const float r = 1.0f / sqrtf(ss / C + 1e-6f);
		for (int j = 0; j < C; j++) y[t][j] = x[t][j] * r;
	}
}
