/* PaLM-style z-loss added to the cross-entropy per token: loss = lse - x[target] + 1e-4 * lse^2,
 * Qwen2 vocabulary 151936, bf16, int32 targets; the lse also stored for the backward. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void xent_zloss(int T, const fusecc_bf16 logits[T][151936], const int32_t labels[T], float loss[T], float lse_out[T])
{
#pragma fuse kernel(xent_zloss) parallel(t) rolling(v)
	for (int t = 0; t < T; t++) {
		float mx = -INFINITY;
		for (int v = 0; v < 151936; v++) {
			float x = fusecc_bf16_to_float(logits[t][v]);
			if (x > mx) mx = x;
		}
		float se = 0.0f;
		for (int v = 0; v < 151936; v++) se += expf(fusecc_bf16_to_float(logits[t][v]) - mx);
		const float lse = mx + logf(se);
		lse_out[t] = lse;
		loss[t] = lse - fusecc_bf16_to_float(logits[t][labels[t]]) + 1e-4f * lse * lse;
	}
}
