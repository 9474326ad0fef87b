/* Greedy sampling with confidence: the first index of the max (strict >), its logit and its
 * softmax probability; int64 token out, fp16 logits. */
#include <math.h>
#include <stdint.h>

void greedy_conf(int B, int V, const _Float16 logits[B][V], int64_t tok[B], float val[B], float prob[B])
{
#pragma fuse kernel(greedy_conf) parallel(b) rolling(v)
	for (int b = 0; b < B; b++) {
		float best = -INFINITY;
		int arg = 0;
		for (int v = 0; v < V; v++) {
			const float x = (float)logits[b][v];
			if (x > best) { best = x; arg = v; }
		}
		float z = 0.0f;
		for (int v = 0; v < V; v++) z += expf((float)logits[b][v] - best);
		tok[b] = arg;
		val[b] = best;
		prob[b] = 1.0f / z;
	}
}
