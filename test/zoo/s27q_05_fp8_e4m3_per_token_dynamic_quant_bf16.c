/* s27q_05_fp8_e4m3_per_token_dynamic_quant_bf16: vLLM's dynamic per-token fp8 quantisation
 * (dynamic_per_token_scaled_fp8_quant) as a C reference writes it: the token's absmax of a
 * bf16 row, scale = max(absmax, 1e-12) / 448 (FP8_E4M3_MAX) stored per token, each value
 * divided by the scale and converted to e4m3 (saturating at 448, round to nearest even). */
#include <math.h>
#include "fusecc.h"

void fp8_per_token_quant(int T, int H, const fusecc_bf16 x[T][H], fusecc_fp8e4m3 out[T][H], float scales[T])
{
#pragma fuse kernel(fp8_per_token_quant) parallel(t)
	for (int t = 0; t < T; t++) {
		float amax = 0.0f;
		for (int h = 0; h < H; h++)
			amax = fmaxf(amax, fabsf(fusecc_bf16_to_float(x[t][h])));
		const float s = fmaxf(amax, 1e-12f) / 448.0f;
		scales[t] = s;
		for (int h = 0; h < H; h++)
			out[t][h] = fusecc_float_to_fp8e4m3(fusecc_bf16_to_float(x[t][h]) / s);
	}
}
