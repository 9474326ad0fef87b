/* Plain C library softmax over rows the way a C programmer walks a matrix: the
 * parameter pointers themselves advanced at the end of each row (x += C; y += C;), fp32. */
#include <math.h>
void softmax_rows(int R, int C, const float *x, float *y)
{
#pragma fuse kernel(softmax_rows) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			if (x[c] > m)
				m = x[c];
		float sum = 0.0f;
		for (int c = 0; c < C; c++) {
			y[c] = expf(x[c] - m);
			sum += y[c];
		}
		for (int c = 0; c < C; c++)
			y[c] /= sum;
		x += C;
		y += C;
	}
}
