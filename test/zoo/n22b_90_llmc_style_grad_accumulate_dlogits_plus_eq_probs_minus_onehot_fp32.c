/* llm.c's crossentropy_softmax_backward with gradient accumulation: dlogits[bt][i] +=
 * (p - indicator) * dloss, the forward's max and sum recomputed (probs not kept), int targets. */
#include <math.h>

void ce_softmax_bwd_accum(int BT, int V, const float dlosses[BT], const float logits[BT][V], const int targets[BT],
			  float dlogits[BT][V])
{
#pragma fuse kernel(ce_softmax_bwd_accum) parallel(bt)
	for (int bt = 0; bt < BT; bt++) {
		float maxval = -10000.0f;
		for (int i = 0; i < V; i++)
			if (logits[bt][i] > maxval)
				maxval = logits[bt][i];
		float sum = 0.0f;
		for (int i = 0; i < V; i++)
			sum += expf(logits[bt][i] - maxval);
		const float dloss = dlosses[bt];
		const int ix = targets[bt];
		for (int i = 0; i < V; i++) {
			const float p = expf(logits[bt][i] - maxval) / sum;
			const float indicator = i == ix ? 1.0f : 0.0f;
			dlogits[bt][i] += (p - indicator) * dloss;
		}
	}
}
