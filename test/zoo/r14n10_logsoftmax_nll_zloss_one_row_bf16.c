/* PaLM-style loss per token: log_softmax + nll + z-loss (1e-4 * lse^2), ignore_index -100. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"
void zloss(int T, int V, const fusecc_bf16 logits[T][V], const int32_t tgt[T], float loss[T], float lse_out[T])
{
#pragma fuse kernel(zloss) parallel(t)
	for (int t = 0; t < T; t++) {
		float mx = -INFINITY;
		for (int v = 0; v < V; v++) mx = fmaxf(mx, fusecc_bf16_to_float(logits[t][v]));
		float se = 0;
		for (int v = 0; v < V; v++) se += expf(fusecc_bf16_to_float(logits[t][v]) - mx);
		float lse = mx + logf(se);
		lse_out[t] = lse;
		if (tgt[t] == -100) { loss[t] = 0; continue; }
		float logp = fusecc_bf16_to_float(logits[t][tgt[t]]) - lse;
		loss[t] = -logp + 1e-4f * lse * lse;
	}
}
