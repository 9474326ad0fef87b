/* row_int8_asym_calib_min_max_macro_inner: asymmetric int8 calibration of a weight
 * matrix: the minimum and maximum over all its elements (MIN / MAX macros, as ternaries),
 * taken inside the loop over a row's elements, then the scale and zero point.
 * Style: llama.cpp / ggml quantisation code: MIN and MAX macros, double range, the
 * statistics started from the first element's opposite infinities. */
#include <math.h>

#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))

void calib(int R, int C, const float w[R][C], float qp[2])
{
	double lo = INFINITY, hi = -INFINITY;
#pragma fuse kernel(calib) parallel(r)
	for (int r = 0; r < R; r++)
		for (int c = 0; c < C; c++) {
			lo = MIN(lo, w[r][c]);
			hi = MAX(hi, w[r][c]);
		}
	double scale = hi > lo ? (hi - lo) / 255.0 : 1.0;
	qp[0] = (float)scale;
	qp[1] = (float)(-128.0 - lo / scale);
}
