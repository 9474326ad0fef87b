/* Sizes from a config struct (expected refused: check message). */
#include <math.h>
struct cfg { int rows, cols; float eps; };
void rms_cfg(struct cfg c, const float *x, float *y)
{
#pragma fuse kernel(rms_cfg) parallel(r)
	for (int r = 0; r < c.rows; r++) {
		float ss = 0;
		for (int j = 0; j < c.cols; j++) ss += x[r * c.cols + j] * x[r * c.cols + j];
		float k = 1.0f / sqrtf(ss / c.cols + c.eps);
		for (int j = 0; j < c.cols; j++) y[r * c.cols + j] = x[r * c.cols + j] * k;
	}
}
