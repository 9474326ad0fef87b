/* softmax_1 ("attention is off by one"): exp(x - m) / (exp(-m) + sum exp(x - m)). */
#include <math.h>
void softmax1(int R, int C, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(softmax1) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = 0.0f;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float z = expf(-m);
		for (int c = 0; c < C; c++) z += expf(x[r][c] - m);
		for (int c = 0; c < C; c++) y[r][c] = expf(x[r][c] - m) / z;
	}
}
