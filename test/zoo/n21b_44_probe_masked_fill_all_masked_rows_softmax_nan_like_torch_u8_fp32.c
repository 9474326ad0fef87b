/* Probe: masked_fill(~mask, -inf) then softmax, as torch does: a row with every element
 * masked gives NaN in C (exp(-inf - -inf)); the fused C must give NaN too (not 0, not 1/C). */
#include <math.h>
#include <stdint.h>

void masked_softmax(int R, int C, const float x[R][C], const uint8_t mask[R][C], float y[R][C])
{
#pragma fuse kernel(masked_softmax) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) {
			float v = mask[r][c] ? x[r][c] : -INFINITY;
			m = fmaxf(m, v);
		}
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf((mask[r][c] ? x[r][c] : -INFINITY) - m);
		for (int c = 0; c < C; c++) y[r][c] = expf((mask[r][c] ? x[r][c] : -INFINITY) - m) / s;
	}
}
