/* Greedy sampling: torch.max(logits, -1) returning value and index (int64), fp16 logits,
 * then the softmax probability of the chosen token. */
#include <math.h>
#include <stdint.h>

void greedy(int B, int V, const _Float16 logits[B][V], int64_t tok[B], float val[B], float prob[B])
{
#pragma fuse kernel(greedy) parallel(b)
	for (int b = 0; b < B; b++) {
		float best = -INFINITY;
		int64_t arg = 0;
		for (int v = 0; v < V; v++) {
			float x = (float)logits[b][v];
			if (x > best) { best = x; arg = v; }
		}
		float z = 0.0f;
		for (int v = 0; v < V; v++) z += expf((float)logits[b][v] - best);
		tok[b] = arg;
		val[b] = best;
		prob[b] = 1.0f / z;
	}
}
