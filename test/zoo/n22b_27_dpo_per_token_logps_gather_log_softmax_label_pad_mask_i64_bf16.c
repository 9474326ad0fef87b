/* DPO/TRL's get_batch_logps per token: log_softmax(logits).gather(-1, labels), zero where
 * labels == -100 (labels replaced by 0 for the gather first, as TRL does). */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void batch_logps(int T, int V, const fusecc_bf16 logits[T][V], const int64_t labels[T], float logps[T])
{
#pragma fuse kernel(batch_logps) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, fusecc_bf16_to_float(logits[t][v]));
		float s = 0.0f;
		for (int v = 0; v < V; v++)
			s += expf(fusecc_bf16_to_float(logits[t][v]) - m);
		const int64_t lab = labels[t] == -100 ? 0 : labels[t];
		const float lp = fusecc_bf16_to_float(logits[t][lab]) - m - logf(s);
		logps[t] = labels[t] == -100 ? 0.0f : lp;
	}
}
