/* Probe for n23b_57 (a softmax shifted by the row mean): logits offset by a bias so the
 * whole row sits near +60. The original's exponentials are e^(x - mean), within e^+-30;
 * a fused pass that shifts by the running partial mean (partial sum / C) is far below
 * the final mean early in the row, so its first exponentials are e^(x - ~1) and overflow
 * to inf near x = 89, where the C never overflows. */
#include <math.h>

void softmax_mean_shift_biased(int R, int C, float bias, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(softmax_mean_shift_biased) parallel(r)
	for (int r = 0; r < R; r++) {
		float mu = 0.0f;
		for (int c = 0; c < C; c++)
			mu += x[r][c] + bias;
		mu /= C;
		float s = 0.0f;
		for (int c = 0; c < C; c++)
			s += expf(x[r][c] + bias - mu);
		for (int c = 0; c < C; c++)
			y[r][c] = expf(x[r][c] + bias - mu) / s;
	}
}
