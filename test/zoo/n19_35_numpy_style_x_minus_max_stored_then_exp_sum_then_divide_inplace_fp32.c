/* numpy-minded softmax written in place over a work buffer: x -= x.max(); e = np.exp(x); return e / e.sum().
 * The subtraction is its own loop that stores back; the exponentials are recomputed for the output. */
#include <math.h>
void np_softmax(int R, int C, float x[R][C])
{
#pragma fuse kernel(np_softmax)
	for (int r = 0; r < R; r++) {
		float mx = -INFINITY;
		for (int c = 0; c < C; c++) mx = fmaxf(mx, x[r][c]);
		for (int c = 0; c < C; c++) x[r][c] = x[r][c] - mx;
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf(x[r][c]);
		for (int c = 0; c < C; c++) x[r][c] = expf(x[r][c]) / s;
	}
}
