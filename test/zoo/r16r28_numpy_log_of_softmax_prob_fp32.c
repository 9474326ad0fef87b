/* log_softmax as a numpy user writes it: np.log(softmax(x)), i.e. logf(expf(x - m) / s) per element,
 * fp32, run-time C. */
#include <math.h>

void log_of_softmax(int R, int C, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(log_of_softmax) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf(x[r][c] - m);
		for (int c = 0; c < C; c++) y[r][c] = logf(expf(x[r][c] - m) / s);
	}
}
