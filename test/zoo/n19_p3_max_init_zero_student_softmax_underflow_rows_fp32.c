/* PROBE: a student's softmax whose max starts at 0 instead of -inf (wrong for all-negative rows only through
 * underflow: exp(x - 0) may flush to 0 and give 0/0). Fused must keep max(0, row max). */
#include <math.h>
void softmax_max0(int R, int C, float bias, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(softmax_max0)
	for (int r = 0; r < R; r++) {
		float mx = 0.0f;
		for (int c = 0; c < C; c++) if (x[r][c] - bias > mx) mx = x[r][c] - bias;
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf(x[r][c] - bias - mx);
		for (int c = 0; c < C; c++) y[r][c] = expf(x[r][c] - bias - mx) / s;
	}
}
