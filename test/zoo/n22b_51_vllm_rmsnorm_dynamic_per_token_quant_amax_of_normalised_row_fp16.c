/* vLLM's rms_norm_dynamic_per_token_quant ported to C: y = x * rstd * w, then the token's scale
 * from max|y| / 127, and the quantised codes as float (the int8 cast is the caller's). */
#include <math.h>

void rms_norm_dyn_quant(int T, int H, float eps, const _Float16 x[T][H], const _Float16 w[H],
			float q[T][H], float scales[T])
{
#pragma fuse kernel(rms_norm_dyn_quant) parallel(t)
	for (int t = 0; t < T; t++) {
		float ss = 0.0f;
		for (int i = 0; i < H; i++)
			ss += (float)x[t][i] * (float)x[t][i];
		const float rstd = 1.0f / sqrtf(ss / H + eps);
		float amax = 0.0f;
		for (int i = 0; i < H; i++)
			amax = fmaxf(amax, fabsf((float)x[t][i] * rstd * (float)w[i]));
		const float scale = amax / 127.0f;
		const float inv = scale > 0.0f ? 1.0f / scale : 0.0f;
		for (int i = 0; i < H; i++)
			q[t][i] = rintf((float)x[t][i] * rstd * (float)w[i] * inv);
		scales[t] = scale;
	}
}
