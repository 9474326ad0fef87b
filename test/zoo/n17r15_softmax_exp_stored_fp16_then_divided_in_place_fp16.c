/* PyTorch CPU-kernel style softmax into an fp16 output: y = exp(x - max) stored (rounded to
 * fp16) while summing, then y /= sum in place: C divides the rounded exponentials. */
#include <math.h>

void softmax_store_then_div(int R, int C, const _Float16 x[R][C], _Float16 y[R][C])
{
#pragma fuse kernel(softmax_store_then_div) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, (float)x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) {
			y[r][c] = (_Float16)expf((float)x[r][c] - m);
			s += (float)y[r][c];
		}
		for (int c = 0; c < C; c++) y[r][c] = (_Float16)((float)y[r][c] / s);
	}
}
