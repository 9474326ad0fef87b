/* Gemma-2 LM head loss: final_logit_softcapping = 30 (cap * tanh(x / cap)) applied to bf16
 * logits, then per-token cross-entropy over V = 256000, int64 labels, -100 ignored. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void gemma2_loss(int T, int V, float cap, const fusecc_bf16 logits[T][V], const int64_t labels[T],
		 float loss[T])
{
#pragma fuse kernel(gemma2_loss) parallel(t) rolling(v)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++) m = fmaxf(m, cap * tanhf(fusecc_bf16_to_float(logits[t][v]) / cap));
		float z = 0.0f;
		for (int v = 0; v < V; v++) z += expf(cap * tanhf(fusecc_bf16_to_float(logits[t][v]) / cap) - m);
		if (labels[t] == -100) {
			loss[t] = 0.0f;
		} else {
			const float tgt = cap * tanhf(fusecc_bf16_to_float(logits[t][labels[t]]) / cap);
			loss[t] = m + logf(z) - tgt;
		}
	}
}
