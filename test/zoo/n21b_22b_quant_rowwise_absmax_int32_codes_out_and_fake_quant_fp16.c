/* The same quantiser with its codes kept as int32 (an int array output fusecc allows) and
 * the fake-quantised row (q * scale) as fp16: QAT's forward. */
#include <math.h>
#include <stdint.h>

void fake_quant(int R, int C, const _Float16 x[R][C], int32_t codes[R][C], _Float16 xq[R][C], float scale[R])
{
#pragma fuse kernel(fake_quant) parallel(r)
	for (int r = 0; r < R; r++) {
		float amax = 0.0f;
		for (int c = 0; c < C; c++) {
			float a = fabsf((float)x[r][c]);
			if (a > amax) amax = a;
		}
		const float s = fmaxf(amax, 1e-8f) / 127.0f;
		scale[r] = s;
		for (int c = 0; c < C; c++) {
			float v = rintf((float)x[r][c] / s);
			v = v > 127.0f ? 127.0f : (v < -127.0f ? -127.0f : v);
			codes[r][c] = (int32_t)v;
			xq[r][c] = (_Float16)(v * s);
		}
	}
}
