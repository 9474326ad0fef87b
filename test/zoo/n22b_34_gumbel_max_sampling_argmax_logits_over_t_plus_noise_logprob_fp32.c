/* Gumbel-max sampling (vLLM/SGLang's exponential-race trick written the textbook way): token =
 * argmax(logits / T + g) with g = -log(-log(u)) precomputed, and the sampled token's log-prob
 * under softmax(logits / T). */
#include <math.h>
#include <stdint.h>

void gumbel_sample(int B, int V, float temperature, const float logits[B][V], const float gumbel[B][V],
		   int64_t token[B], float logprob[B])
{
#pragma fuse kernel(gumbel_sample) parallel(b)
	for (int b = 0; b < B; b++) {
		float best = -INFINITY, best_logit = 0.0f;
		int64_t arg = 0;
		float m = -INFINITY;
		for (int v = 0; v < V; v++) {
			const float l = logits[b][v] / temperature;
			const float key = l + gumbel[b][v];
			if (key > best) {
				best = key;
				arg = v;
				best_logit = l;
			}
			m = fmaxf(m, l);
		}
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z += expf(logits[b][v] / temperature - m);
		token[b] = arg;
		logprob[b] = best_logit - m - logf(z);
	}
}
