/* A vLLM-like sampler's per-request branch: temperature == 0 means greedy (argmax, probability 1),
 * else the softmax at that temperature and the probability of a given proposed token (speculative
 * decoding's acceptance test). */
#include <math.h>
#include <stdint.h>

void accept_prob(int R, int V, const float logits[R][V], const float temperature[R], const int32_t draft[R],
		 float p_draft[R])
{
#pragma fuse kernel(accept_prob) parallel(r)
	for (int r = 0; r < R; r++) {
		if (temperature[r] == 0.0f) {
			int arg = 0;
			float best = -INFINITY;
			for (int v = 0; v < V; v++)
				if (logits[r][v] > best) {
					best = logits[r][v];
					arg = v;
				}
			p_draft[r] = arg == draft[r] ? 1.0f : 0.0f;
		} else {
			const float t = temperature[r];
			float m = -INFINITY;
			for (int v = 0; v < V; v++)
				m = fmaxf(m, logits[r][v] / t);
			float z = 0.0f;
			for (int v = 0; v < V; v++)
				z += expf(logits[r][v] / t - m);
			p_draft[r] = expf(logits[r][draft[r]] / t - m) / z;
		}
	}
}
