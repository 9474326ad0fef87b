/* Sizes from a config struct (llama2.c keeps them in Config): probably refused. */
#include <math.h>

typedef struct { int rows; int cols; } Shape;

void sm_struct(Shape sh, const float *x, float *y)
{
#pragma fuse kernel(sm_struct) parallel(r)
	for (int r = 0; r < sh.rows; r++) {
		float m = -INFINITY;
		for (int c = 0; c < sh.cols; c++) m = fmaxf(m, x[r * sh.cols + c]);
		float s = 0.0f;
		for (int c = 0; c < sh.cols; c++) s += expf(x[r * sh.cols + c] - m);
		for (int c = 0; c < sh.cols; c++) y[r * sh.cols + c] = expf(x[r * sh.cols + c] - m) / s;
	}
}
