/* Greedy sampling with confidence: the top-1 token id (int64), its logit and its softmax probability
 * 1 / sum exp(x - max); fp16 logits, run-time vocabulary; first index wins ties. */
#include <math.h>
#include <stdint.h>

void top1_prob(int B, int V, const _Float16 logits[B][V], int64_t token[B], float top_logit[B], float top_prob[B])
{
#pragma fuse kernel(top1_prob) parallel(b)
	for (int b = 0; b < B; b++) {
		float best = -INFINITY;
		int64_t arg = 0;
		for (int v = 0; v < V; v++) {
			float x = (float)logits[b][v];
			if (x > best) { best = x; arg = v; }
		}
		float z = 0.0f;
		for (int v = 0; v < V; v++) z += expf((float)logits[b][v] - best);
		token[b] = arg;
		top_logit[b] = best;
		top_prob[b] = 1.0f / z;
	}
}
