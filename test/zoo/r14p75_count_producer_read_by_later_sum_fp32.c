/* probe: an int count from the first loop read (as 1/n) by the second loop's sum */
#include <math.h>
#include <stdint.h>
void p75(int R, int C, const float x[R][C], const uint8_t keep[R][C], float y[R])
{
#pragma fuse kernel(p75) parallel(r)
	for (int r = 0; r < R; r++) {
		int n = 0;
		for (int c = 0; c < C; c++) n += keep[r][c];
		float a = 0;
		for (int c = 0; c < C; c++) a += keep[r][c] ? x[r][c] / (float)n : 0.0f;
		y[r] = a;
	}
}
