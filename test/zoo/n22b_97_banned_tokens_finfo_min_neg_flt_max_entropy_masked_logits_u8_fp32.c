/* The same sampler entropy with banned tokens, masked the way current HF code does it:
 * masked_fill(torch.finfo(float32).min), i.e. x = allowed ? logit : -FLT_MAX; p = softmax(x),
 * H = -sum p * log_softmax(x). Banned entries have p == 0 and contribute 0 (0 * finite). */
#include <math.h>
#include <stdint.h>
#include <float.h>

void masked_entropy(int B, int V, const float logits[B][V], const uint8_t allowed[B][V], float H[B])
{
#pragma fuse kernel(masked_entropy) parallel(b)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++) {
			const float x = allowed[b][v] ? logits[b][v] : -FLT_MAX;
			m = fmaxf(m, x);
		}
		float z = 0.0f;
		for (int v = 0; v < V; v++) {
			const float x = allowed[b][v] ? logits[b][v] : -FLT_MAX;
			z += expf(x - m);
		}
		const float lse = m + logf(z);
		float h = 0.0f;
		for (int v = 0; v < V; v++) {
			const float x = allowed[b][v] ? logits[b][v] : -FLT_MAX;
			h -= expf(x - lse) * (x - lse);
		}
		H[b] = h;
	}
}
