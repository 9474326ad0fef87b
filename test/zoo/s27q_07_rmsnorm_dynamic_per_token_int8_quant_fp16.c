/* s27q_07_rmsnorm_dynamic_per_token_int8_quant_fp16: vLLM's fused rms_norm_dynamic_per_token_quant
 * (int8 output) as its reference writes it: the token's RMSNorm with a weight, then the
 * absmax of the normalised row, scale = absmax / 127 (min 1e-10), codes = clamp(rint(y /
 * scale), -128, 127) as int8. The mean of squares is a sum, added in another order by the
 * fused C and the kernels, which moves a code by one step where y / scale lies within a few
 * ulps of a rounding boundary (the harness's one-step rule). */
#include <math.h>
#include <stdint.h>

void rms_norm_dynamic_per_token_quant(int T, int H, const _Float16 x[T][H], const _Float16 w[H], float eps, int8_t out[T][H], float scales[T])
{
#pragma fuse kernel(rms_norm_quant) parallel(t)
	for (int t = 0; t < T; t++) {
		float ss = 0.0f;
		for (int h = 0; h < H; h++)
			ss += (float)x[t][h] * (float)x[t][h];
		const float rms = 1.0f / sqrtf(ss / H + eps);
		float amax = 0.0f;
		for (int h = 0; h < H; h++)
			amax = fmaxf(amax, fabsf((float)x[t][h] * rms * (float)w[h]));
		const float s = fmaxf(amax, 1e-10f) / 127.0f;
		scales[t] = s;
		for (int h = 0; h < H; h++) {
			float v = rintf((float)x[t][h] * rms * (float)w[h] / s);
			v = fminf(fmaxf(v, -128.0f), 127.0f);
			out[t][h] = (int8_t)v;
		}
	}
}
