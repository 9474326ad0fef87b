/* Sampling diagnostics: the entropy of the next-token distribution after banned tokens
 * (a uint8 mask) are set to -1e9, H = -sum p log p written as logz - sum p (x - m) / z. fp32. */
#include <math.h>
#include <stdint.h>

void masked_entropy(int B, int V, const uint8_t banned[V], const float logits[B][V], float ent[B])
{
#pragma fuse kernel(masked_entropy) parallel(b) rolling(v)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++) {
			const float x = banned[v] ? -1e9f : logits[b][v];
			m = fmaxf(m, x);
		}
		float z = 0.0f, e = 0.0f;
		for (int v = 0; v < V; v++) {
			const float x = banned[v] ? -1e9f : logits[b][v];
			const float p = expf(x - m);
			z += p;
			e += p * (x - m);
		}
		ent[b] = logf(z) - e / z;
	}
}
