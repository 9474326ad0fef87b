/* Probe: the entropy accumulated straight into the output element (H[r] = 0; H[r] -= ...),
 * the probability reading the max and the sum. */
#include <math.h>

void entropy_out(int R, int C, const _Float16 x[R][C], float H[R])
{
#pragma fuse kernel(entropy_out) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, (float)x[r][c]);
		float z = 0.0f;
		for (int c = 0; c < C; c++) z += expf((float)x[r][c] - m);
		H[r] = 0.0f;
		for (int c = 0; c < C; c++) {
			const float lp = (float)x[r][c] - m - logf(z);
			H[r] -= expf(lp) * lp;
		}
	}
}
