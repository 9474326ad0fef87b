/* Per-token int8 quantisation written as a region: the quantised output is refused (its
 * rounding and saturation are not modelled), the int8 input it might come from is not. */
#include <math.h>
#include <stdint.h>

void quant(int N, const int8_t x[N][64], const float xs[N], int8_t y[N][64], float ys[N])
{
#pragma fuse kernel(quant) parallel(i)
	for (int i = 0; i < N; i++) {
		float amax = 0.0f;
		for (int d = 0; d < 64; d++)
			amax = fmaxf(amax, fabsf(x[i][d] * xs[i]));
		ys[i] = amax / 127.0f;
		for (int d = 0; d < 64; d++)
			y[i][d] = (int8_t)roundf(x[i][d] * xs[i] / ys[i]);
	}
}
