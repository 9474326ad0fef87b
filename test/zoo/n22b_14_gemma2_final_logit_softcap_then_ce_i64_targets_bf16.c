/* Gemma-2 training loss: final_logit_softcapping (cap * tanh(x / cap)) applied to the logits,
 * then cross-entropy against int64 labels, per token. Someone fusing the lm-head epilogue. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

static inline float softcap(float x, float cap) { return cap * tanhf(x / cap); }

void softcap_ce(int T, int V, float cap, const fusecc_bf16 logits[T][V], const int64_t labels[T],
		float loss[T])
{
#pragma fuse kernel(softcap_ce) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, softcap(fusecc_bf16_to_float(logits[t][v]), cap));
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z += expf(softcap(fusecc_bf16_to_float(logits[t][v]), cap) - m);
		loss[t] = m + logf(z) - softcap(fusecc_bf16_to_float(logits[t][labels[t]]), cap);
	}
}
