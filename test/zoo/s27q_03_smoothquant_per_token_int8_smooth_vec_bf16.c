/* s27q_03_smoothquant_per_token_int8_smooth_vec_bf16: SmoothQuant's W8A8 activation path
 * (smoothquant/fake_quant.py's quantize_activation_per_token_absmax, after the smoothing
 * the paper folds into the previous norm) written as one C loop nest: x / s_j per channel
 * with the smoothing vector, the token's absmax of the smoothed row, scale = absmax / 127
 * (clamped below at 1e-5 as the reference's clamp_(min=1e-5)), codes = clamp(round(x / s_j
 * / scale), -128, 127) as int8, the per-token scale kept for the int8 GEMM's epilogue. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void smooth_quant_per_token(int T, int C, const fusecc_bf16 x[T][C], const float smooth[C], int8_t q[T][C], float scale[T])
{
#pragma fuse kernel(smooth_quant_per_token) parallel(t)
	for (int t = 0; t < T; t++) {
		float amax = 0.0f;
		for (int c = 0; c < C; c++)
			amax = fmaxf(amax, fabsf(fusecc_bf16_to_float(x[t][c]) / smooth[c]));
		const float s = fmaxf(amax, 1e-5f) / 127.0f;
		scale[t] = s;
		for (int c = 0; c < C; c++) {
			float v = roundf(fusecc_bf16_to_float(x[t][c]) / smooth[c] / s);
			v = fminf(fmaxf(v, -128.0f), 127.0f);
			q[t][c] = (int8_t)v;
		}
	}
}
