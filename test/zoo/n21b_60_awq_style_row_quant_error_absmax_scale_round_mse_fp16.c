/* The per-row int8 quantisation error an AWQ/GPTQ-style search computes: absmax scale, then
 * the mean squared error of x against its fake-quantised value; the error reads the scale
 * (a result of the max) through roundf. */
#include <math.h>

void quant_mse(int R, int C, const _Float16 w[R][C], float mse[R], float scale[R])
{
#pragma fuse kernel(quant_mse) parallel(r)
	for (int r = 0; r < R; r++) {
		float amax = 0.0f;
		for (int c = 0; c < C; c++) amax = fmaxf(amax, fabsf((float)w[r][c]));
		const float s = fmaxf(amax, 1e-5f) / 127.0f;
		float err = 0.0f;
		for (int c = 0; c < C; c++) {
			const float x = (float)w[r][c];
			const float d = x - roundf(x / s) * s;
			err += d * d;
		}
		mse[r] = err / C;
		scale[r] = s;
	}
}
