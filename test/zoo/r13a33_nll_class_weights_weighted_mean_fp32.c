/* F.cross_entropy(logits, target, weight=w, reduction='mean'): per-token loss times the class
 * weight, divided by the sum of the weights of the targets. */
#include <math.h>
#include <stdint.h>

void xent_weighted(int T, int V, const float logits[T][V], const int64_t target[T],
		   const float w[V], float *loss)
{
	float num = 0.0f, den = 0.0f;
#pragma fuse kernel(xent_weighted) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++) m = fmaxf(m, logits[t][v]);
		float z = 0.0f;
		for (int v = 0; v < V; v++) z += expf(logits[t][v] - m);
		const float wt = w[target[t]];
		num += wt * (m + logf(z) - logits[t][target[t]]);
		den += wt;
	}
	*loss = num / den;
}
