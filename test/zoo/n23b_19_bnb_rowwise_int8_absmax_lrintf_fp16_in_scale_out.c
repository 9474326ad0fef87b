/* bitsandbytes-style row-wise int8 quantisation as a C programmer writes it with lrintf
 * (the libm call that rounds to nearest-even and returns a long), fp16 input, the row's
 * absmax stored as the scale. */
#include <math.h>
#include <stdint.h>

void quant_rowwise_int8(int R, int C, const _Float16 x[R][C], int8_t q[R][C], float absmax[R])
{
#pragma fuse kernel(quant_rowwise_int8) parallel(r)
	for (int r = 0; r < R; r++) {
		float amax = 0.0f;
		for (int c = 0; c < C; c++)
			amax = fmaxf(amax, fabsf((float)x[r][c]));
		absmax[r] = amax;
		const float s = amax > 0.0f ? 127.0f / amax : 0.0f;
		for (int c = 0; c < C; c++)
			q[r][c] = (int8_t)lrintf((float)x[r][c] * s);
	}
}
