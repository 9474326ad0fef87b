/* probe: an int64 budget decremented per kept element (n -= keep) beside a sum, split-k */
#include <stdint.h>
void p78(int R, int C, const int64_t budget[R], const uint8_t keep[R][C], const float x[R][C], int64_t left[R], float s[R])
{
#pragma fuse kernel(p78) parallel(r) splitk(c)
	for (int r = 0; r < R; r++) {
		int64_t n = budget[r];
		float a = 0;
		for (int c = 0; c < C; c++) { n -= keep[r][c]; a += keep[r][c] ? x[r][c] : 0.0f; }
		left[r] = n;
		s[r] = a;
	}
}
