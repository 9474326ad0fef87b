/* Sampling: logits below a per-row threshold (the k-th largest, computed elsewhere) are
 * dropped, the rest softmaxed with temperature. fp32. */
#include <math.h>

void topk_softmax(int B, int V, float temperature, const float thresh[B], const float logits[B][V], float probs[B][V])
{
#pragma fuse kernel(topk_softmax) parallel(b) rolling(v)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++) {
			float x = logits[b][v] < thresh[b] ? -INFINITY : logits[b][v] / temperature;
			m = fmaxf(m, x);
		}
		float z = 0.0f;
		for (int v = 0; v < V; v++) {
			float x = logits[b][v] < thresh[b] ? -INFINITY : logits[b][v] / temperature;
			z += expf(x - m);
		}
		for (int v = 0; v < V; v++) {
			float x = logits[b][v] < thresh[b] ? -INFINITY : logits[b][v] / temperature;
			probs[b][v] = expf(x - m) / z;
		}
	}
}
