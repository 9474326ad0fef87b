/* entropix sampler stats: entropy H = -sum p log p and varentropy sum p (log p + H)^2 of
 * the next-token distribution, a chain of three reductions (lse, then H, then the
 * variance around H), in nats. fp16 logits, PyTorch port. */
#include <math.h>

void entropy_varentropy(int B, int V, const _Float16 logits[B][V], float ent[B], float varent[B])
{
#pragma fuse kernel(entropy_varentropy) parallel(b)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, (float)logits[b][v]);
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z += expf((float)logits[b][v] - m);
		const float lse = m + logf(z);
		float h = 0.0f;
		for (int v = 0; v < V; v++) {
			float lp = (float)logits[b][v] - lse;
			h -= expf(lp) * lp;
		}
		float vh = 0.0f;
		for (int v = 0; v < V; v++) {
			float lp = (float)logits[b][v] - lse;
			vh += expf(lp) * (lp + h) * (lp + h);
		}
		ent[b] = h;
		varent[b] = vh;
	}
}
