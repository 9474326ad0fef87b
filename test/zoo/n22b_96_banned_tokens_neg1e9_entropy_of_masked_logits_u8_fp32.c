/* A sampler's entropy bonus / diagnostics with banned tokens (bad_words_ids, no BOS/PAD: HF's
 * masked_fill with -1e9 rather than -inf so nothing becomes NaN): x = allowed ? logit : -1e9,
 * p = softmax(x), H = -sum p * log_softmax(x). Banned entries have p == 0 and contribute 0. */
#include <math.h>
#include <stdint.h>

void masked_entropy(int B, int V, const float logits[B][V], const uint8_t allowed[B][V], float H[B])
{
#pragma fuse kernel(masked_entropy) parallel(b)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++) {
			const float x = allowed[b][v] ? logits[b][v] : -1e9f;
			m = fmaxf(m, x);
		}
		float z = 0.0f;
		for (int v = 0; v < V; v++) {
			const float x = allowed[b][v] ? logits[b][v] : -1e9f;
			z += expf(x - m);
		}
		const float lse = m + logf(z);
		float h = 0.0f;
		for (int v = 0; v < V; v++) {
			const float x = allowed[b][v] ? logits[b][v] : -1e9f;
			h -= expf(x - lse) * (x - lse);
		}
		H[b] = h;
	}
}
