/* Sampler diagnostics after sampling: for the token actually sampled, its probability at
 * temperature T, and the total probability of tokens whose logit is >= its logit (the
 * "nucleus it fell in"). Three reductions chained on a gathered value. */
#include <math.h>
#include <stdint.h>

void sampled_token_stats(int B, int V, float temperature, const float logits[B][V], const int64_t sampled[B],
			 float p_tok[B], float mass_above[B])
{
	const float inv_t = 1.0f / temperature;
#pragma fuse kernel(sampled_token_stats) parallel(b)
	for (int b = 0; b < B; b++) {
		const float xs = logits[b][sampled[b]];
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, logits[b][v] * inv_t);
		float z = 0.0f, za = 0.0f;
		for (int v = 0; v < V; v++) {
			float e = expf(logits[b][v] * inv_t - m);
			z += e;
			if (logits[b][v] >= xs)
				za += e;
		}
		p_tok[b] = expf(xs * inv_t - m) / z;
		mass_above[b] = za / z;
	}
}
