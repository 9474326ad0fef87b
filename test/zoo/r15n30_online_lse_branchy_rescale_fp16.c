/* Online (single-pass) log-sum-exp written with branches, as in the "Online normalizer
 * calculation for softmax" paper's pseudo-code: if x > m, rescale d; fp16 rows of 50257. */
#include <math.h>

void online_lse(int R, const _Float16 x[R][50257], float lse[R])
{
#pragma fuse kernel(online_lse) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY, d = 0.0f;
		for (int c = 0; c < 50257; c++) {
			const float v = (float)x[r][c];
			if (v > m) {
				d = d * expf(m - v) + 1.0f;
				m = v;
			} else {
				d += expf(v - m);
			}
		}
		lse[r] = m + logf(d);
	}
}
