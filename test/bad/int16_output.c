/* A quantiser writing int16 codes: int16_t is no type of the input language (bytes, int and
 * int64_t are), refused at the declaration. */
#include <math.h>
#include <stdint.h>

void quant16(int N, const float x[N][64], int16_t y[N][64], float ys[N])
{
#pragma fuse kernel(quant16) parallel(i)
	for (int i = 0; i < N; i++) {
		float amax = 0.0f;
		for (int d = 0; d < 64; d++)
			amax = fmaxf(amax, fabsf(x[i][d]));
		ys[i] = amax / 32767.0f;
		for (int d = 0; d < 64; d++)
			y[i][d] = (int16_t)roundf(x[i][d] / ys[i]);
	}
}
