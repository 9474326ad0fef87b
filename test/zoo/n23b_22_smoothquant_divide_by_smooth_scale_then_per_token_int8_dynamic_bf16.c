/* SmoothQuant with dynamic per-token int8: x / smooth[k] first (the migrated activation
 * scale), then the token's absmax over the smoothed row, then the codes. A vLLM-kernel
 * author's C reference, bf16 input, the smoothed value recomputed in the second loop. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void smooth_dyn_quant(int T, int K, const fusecc_bf16 x[T][K], const float smooth[K],
		      int8_t q[T][K], float tok_scale[T])
{
#pragma fuse kernel(smooth_dyn_quant) parallel(t)
	for (int t = 0; t < T; t++) {
		float amax = 0.0f;
		for (int k = 0; k < K; k++) {
			float v = fusecc_bf16_to_float(x[t][k]) / smooth[k];
			amax = fmaxf(amax, fabsf(v));
		}
		const float scale = amax / 127.0f;
		tok_scale[t] = scale;
		const float inv = scale == 0.0f ? 0.0f : 127.0f / amax;
		for (int k = 0; k < K; k++) {
			float v = fusecc_bf16_to_float(x[t][k]) / smooth[k];
			q[t][k] = (int8_t)roundf(fminf(fmaxf(v * inv, -128.0f), 127.0f));
		}
	}
}
