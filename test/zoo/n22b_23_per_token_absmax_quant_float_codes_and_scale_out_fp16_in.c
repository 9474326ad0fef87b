/* Per-token (row-wise) symmetric int8 fake-quantisation with float outputs, as in SmoothQuant's
 * quantize_per_token_absmax: scale = max|x| / 127 (clamped), q = round(x / scale) kept as float,
 * plus the dequantised row for the error check. */
#include <math.h>

void per_token_quant(int T, int H, const _Float16 x[T][H], float q[T][H], _Float16 xdq[T][H], float scale[T])
{
#pragma fuse kernel(per_token_quant) parallel(t)
	for (int t = 0; t < T; t++) {
		float amax = 0.0f;
		for (int h = 0; h < H; h++)
			amax = fmaxf(amax, fabsf((float)x[t][h]));
		const float s = fmaxf(amax, 1e-5f) / 127.0f;
		for (int h = 0; h < H; h++) {
			const float qv = fminf(fmaxf(roundf((float)x[t][h] / s), -128.0f), 127.0f);
			q[t][h] = qv;
			xdq[t][h] = (_Float16)(qv * s);
		}
		scale[t] = s;
	}
}
