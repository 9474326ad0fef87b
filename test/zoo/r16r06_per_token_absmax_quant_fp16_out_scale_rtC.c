/* Per-token dynamic quantisation (SmoothQuant / fp8 prep) with the quantised values kept in fp16:
 * scale = absmax / 127, y = rint(x / scale) clamped; scale stored per token; run-time hidden size. */
#include <math.h>

void quant_tok(int T, int C, const _Float16 x[T][C], _Float16 y[T][C], float scale[T])
{
#pragma fuse kernel(quant_tok) parallel(t)
	for (int t = 0; t < T; t++) {
		float amax = 0.0f;
		for (int c = 0; c < C; c++) amax = fmaxf(amax, fabsf((float)x[t][c]));
		const float s = amax > 0.0f ? amax / 127.0f : 1.0f;
		scale[t] = s;
		for (int c = 0; c < C; c++) {
			float qv = rintf((float)x[t][c] / s);
			qv = fminf(fmaxf(qv, -127.0f), 127.0f);
			y[t][c] = (_Float16)qv;
		}
	}
}
