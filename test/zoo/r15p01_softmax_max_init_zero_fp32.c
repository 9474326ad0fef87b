/* Probe: a max initialised to 0 (a student's habit): for rows of all-negative logits the shift
 * is 0, not the max; still a valid softmax, but the fused pass must keep the seed 0. */
#include <math.h>

void softmax_m0(int R, int C, const float x[R][C], float y[R][C], float mx_out[R])
{
#pragma fuse kernel(softmax_m0) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = 0.0f;
		for (int c = 0; c < C; c++) if (x[r][c] > m) m = x[r][c];
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf(x[r][c] - m);
		mx_out[r] = m;
		for (int c = 0; c < C; c++) y[r][c] = expf(x[r][c] - m) / s;
	}
}
