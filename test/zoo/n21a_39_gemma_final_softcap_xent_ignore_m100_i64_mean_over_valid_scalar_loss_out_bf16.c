/* Gemma 2's final_logit_softcapping (30 * tanh(x / 30)) fused into the LM loss: cross-entropy
 * against int64 labels with ignore_index -100, mean over the valid tokens into one scalar output
 * (loss[0]) and the count of valid tokens: a reduction over the rows. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void softcap_xent(int T, int V, const fusecc_bf16 logits[T][V], const int64_t labels[T], float loss[1], float nvalid[1])
{
	loss[0] = 0.0f;
	nvalid[0] = 0.0f;
#pragma fuse kernel(softcap_xent) parallel(t)
	for (int t = 0; t < T; t++) {
		if (labels[t] == -100) continue;
		float m = -INFINITY;
		for (int c = 0; c < V; c++) m = fmaxf(m, 30.0f * tanhf(fusecc_bf16_to_float(logits[t][c]) / 30.0f));
		float s = 0.0f;
		for (int c = 0; c < V; c++) s += expf(30.0f * tanhf(fusecc_bf16_to_float(logits[t][c]) / 30.0f) - m);
		const float xt = 30.0f * tanhf(fusecc_bf16_to_float(logits[t][labels[t]]) / 30.0f);
		loss[0] += m + logf(s) - xt;
		nvalid[0] += 1.0f;
	}
}
