/* probe: an int max (argmax-free, the largest id) read by a later float sum as a shift */
#include <math.h>
#include <stdint.h>
void p76(int R, int C, const int32_t ids[R][C], const float x[R][C], float y[R])
{
#pragma fuse kernel(p76) parallel(r)
	for (int r = 0; r < R; r++) {
		int n = 0;
		for (int c = 0; c < C; c++) n += ids[r][c];
		float a = 0;
		for (int c = 0; c < C; c++) a += expf(x[r][c] - 0.001f * (float)n);
		y[r] = a;
	}
}
