/* Megatron-style cross-entropy written without gather: the target logit picked inside the class loop by a
 * comparison (predicted_logits = logits * onehot), max-subtracted first, per-token loss out. bf16 logits. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"
void vocab_xent(int T, int V, const fusecc_bf16 logits[T][V], const int32_t target[T], float loss[T])
{
#pragma fuse kernel(vocab_xent) parallel(t)
	for (int t = 0; t < T; t++) {
		float logits_max = -INFINITY;
		for (int v = 0; v < V; v++) logits_max = fmaxf(logits_max, fusecc_bf16_to_float(logits[t][v]));
		float predicted_logits = 0.0f, sum_exp_logits = 0.0f;
		for (int v = 0; v < V; v++) {
			const float x = fusecc_bf16_to_float(logits[t][v]) - logits_max;
			if (v == target[t]) predicted_logits += x;
			sum_exp_logits += expf(x);
		}
		loss[t] = logf(sum_exp_logits) - predicted_logits;
	}
}
