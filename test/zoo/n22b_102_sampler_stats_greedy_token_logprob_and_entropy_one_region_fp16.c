/* Sampler statistics a serving engine logs per step: the greedy token (torch.argmax, first max),
 * its log-prob, and the entropy of the distribution, in one region over the vocab. */
#include <math.h>
#include <stdint.h>

void sampler_stats(int B, int V, const _Float16 logits[B][V], int64_t tok[B], float logprob[B], float entropy[B])
{
#pragma fuse kernel(sampler_stats) parallel(b)
	for (int b = 0; b < B; b++) {
		float best = -INFINITY;
		int64_t arg = 0;
		for (int v = 0; v < V; v++)
			if ((float)logits[b][v] > best) {
				best = (float)logits[b][v];
				arg = v;
			}
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z += expf((float)logits[b][v] - best);
		const float lse = best + logf(z);
		float h = 0.0f;
		for (int v = 0; v < V; v++) {
			const float lp = (float)logits[b][v] - lse;
			h -= expf(lp) * lp;
		}
		tok[b] = arg;
		logprob[b] = best - lse;
		entropy[b] = h;
	}
}
