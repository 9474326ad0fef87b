/* Probe: the max over all classes (masked ones included), the sum skipping masked classes with
 * continue: the shift is not the kept max, which is legal; a fully masked row gives s = 0 and
 * log(0) = -inf in C. */
#include <math.h>
#include <stdint.h>

void masked_lse(int R, int C, const _Float16 x[R][C], const uint8_t keep[R][C], float lse[R])
{
#pragma fuse kernel(masked_lse) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, (float)x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) {
			if (!keep[r][c]) continue;
			s += expf((float)x[r][c] - m);
		}
		lse[r] = m + logf(s);
	}
}
