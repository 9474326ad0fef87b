/* Greedy decoding written with `>=` (so ties take the LAST index, unlike torch.argmax) plus the
 * max logit and the softmax probability of the winner; int64 token out. fp16 logits. */
#include <math.h>
#include <stdint.h>

void greedy_pick(int B, int V, const _Float16 logits[B][V], int64_t next_token[B], float top_logit[B], float top_prob[B])
{
#pragma fuse kernel(greedy_pick) parallel(b)
	for (int b = 0; b < B; b++) {
		float best = -INFINITY;
		int64_t arg = 0;
		for (int v = 0; v < V; v++) {
			const float x = (float)logits[b][v];
			if (x >= best) {
				best = x;
				arg = v;
			}
		}
		float z = 0.0f;
		for (int v = 0; v < V; v++) z += expf((float)logits[b][v] - best);
		next_token[b] = arg;
		top_logit[b] = best;
		top_prob[b] = 1.0f / z;
	}
}
