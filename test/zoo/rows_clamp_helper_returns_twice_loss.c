/* A robust regression loss per row: predictions and targets clamped through one helper
 * with early returns, called twice in the same expression, summed over the row
 * (a numerical-recipes style C port). */
#include <math.h>

static float clampf(float x, float lo, float hi)
{
	if (x < lo)
		return lo;
	if (x > hi)
		return hi;
	return x;
}

void clamped_l1(int R, int C, const float pred[R][C], const float target[R][C], float loss[R])
{
#pragma fuse kernel(clamped_l1) parallel(r)
	for (int r = 0; r < R; r++) {
		float s = 0.0f;
		for (int c = 0; c < C; c++)
			s += fabsf(clampf(pred[r][c], -4.0f, 4.0f) - clampf(target[r][c], -4.0f, 4.0f));
		loss[r] = s / C;
	}
}
