/* bitsandbytes-style row-wise int8 quantisation: absmax per row, scale = absmax / 127,
 * q = clamp(round(x / scale), -127, 127) stored as int8, the scale stored as float. */
#include <math.h>
#include <stdint.h>

void quant_rows(int R, int C, const float x[R][C], int8_t q[R][C], float scale[R])
{
#pragma fuse kernel(quant_rows) parallel(r)
	for (int r = 0; r < R; r++) {
		float amax = 0.0f;
		for (int c = 0; c < C; c++) amax = fmaxf(amax, fabsf(x[r][c]));
		const float s = amax > 0.0f ? amax / 127.0f : 1.0f;
		scale[r] = s;
		for (int c = 0; c < C; c++) {
			float v = roundf(x[r][c] / s);
			v = fminf(fmaxf(v, -127.0f), 127.0f);
			q[r][c] = (int8_t)v;
		}
	}
}
