/* Top-1 accuracy per batch: argmax per row (first max wins), count of argmax == target. */
#include <stdint.h>
#include <math.h>
void top1(int N, int C, const float x[N][C], const int64_t y[N], int64_t correct[N])
{
#pragma fuse kernel(top1) parallel(n)
	for (int n = 0; n < N; n++) {
		float best = -INFINITY;
		int64_t arg = 0;
		for (int c = 0; c < C; c++)
			if (x[n][c] > best) { best = x[n][c]; arg = c; }
		correct[n] = (arg == y[n]) ? 1 : 0;
	}
}
