/* Greedy decoding that also reports the chosen token's probability at temperature T0:
 * argmax (first index on ties, `>`), then p = 1 / sum exp((x - max) / temp). fp16 logits. */
#include <math.h>

void greedy_prob(int B, int V, float temp, const _Float16 logits[B][V], int next_tok[B], float tok_prob[B])
{
#pragma fuse kernel(greedy_prob) parallel(b)
	for (int b = 0; b < B; b++) {
		float best = -INFINITY;
		int arg = 0;
		for (int c = 0; c < V; c++) {
			const float x = (float)logits[b][c];
			if (x > best) { best = x; arg = c; }
		}
		float z = 0.0f;
		for (int c = 0; c < V; c++) z += expf(((float)logits[b][c] - best) / temp);
		next_tok[b] = arg;
		tok_prob[b] = 1.0f / z;
	}
}
