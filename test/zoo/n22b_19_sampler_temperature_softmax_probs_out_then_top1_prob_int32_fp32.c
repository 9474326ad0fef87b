/* A sampling helper (llama2.c-like but batched): divide by temperature, softmax into probs,
 * then pick the most likely token from the probabilities and return its probability. */
#include <math.h>

void sample_greedy_probs(int B, int V, float temperature, const float logits[B][V], float probs[B][V],
			 int token[B], float token_prob[B])
{
#pragma fuse kernel(sample_greedy_probs) parallel(b)
	for (int b = 0; b < B; b++) {
		float mx = -INFINITY;
		for (int v = 0; v < V; v++)
			mx = fmaxf(mx, logits[b][v] / temperature);
		float sum = 0.0f;
		for (int v = 0; v < V; v++)
			sum += expf(logits[b][v] / temperature - mx);
		for (int v = 0; v < V; v++)
			probs[b][v] = expf(logits[b][v] / temperature - mx) / sum;
		int best = 0;
		float bp = probs[b][0];
		for (int v = 1; v < V; v++)
			if (probs[b][v] > bp) {
				bp = probs[b][v];
				best = v;
			}
		token[b] = best;
		token_prob[b] = bp;
	}
}
