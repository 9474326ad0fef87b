/* s27q_04_uint8_asym_minmax_zero_point_fp32: per-row asymmetric uint8 quantisation as
 * PyTorch's quantize_per_channel reference and ONNX Runtime's DynamicQuantizeLinear write it:
 * the range [min(x, 0), max(x, 0)] of the row, scale = (max - min) / 255 (1 for a constant
 * zero row), zero point = clamp(round(-min / scale), 0, 255), codes = clamp(rint(x / scale)
 * + zp, 0, 255) stored as uint8; the scale and the zero point (as int32) are kept. */
#include <math.h>
#include <stdint.h>

void quant_u8_asym(int R, int C, const float x[R][C], uint8_t q[R][C], float scale[R], int32_t zero_point[R])
{
#pragma fuse kernel(quant_u8_asym) parallel(r)
	for (int r = 0; r < R; r++) {
		float lo = 0.0f, hi = 0.0f;
		for (int c = 0; c < C; c++) {
			lo = fminf(lo, x[r][c]);
			hi = fmaxf(hi, x[r][c]);
		}
		const float s = hi > lo ? (hi - lo) / 255.0f : 1.0f;
		const float zp = fminf(fmaxf(roundf(-lo / s), 0.0f), 255.0f);
		scale[r] = s;
		zero_point[r] = (int32_t)zp;
		for (int c = 0; c < C; c++) {
			float v = rintf(x[r][c] / s) + zp;
			v = fminf(fmaxf(v, 0.0f), 255.0f);
			q[r][c] = (uint8_t)v;
		}
	}
}
