/* min-p in probability space written as a select, relative to the top token: p = exp(x - max) (p of the top token
 * is 1), keep when p >= min_p, probabilities renormalised over the kept set. */
#include <math.h>

void minp_probs(int B, int V, float min_p, const float logits[B][V], float probs[B][V])
{
#pragma fuse kernel(minp_probs) parallel(b)
	for (int b = 0; b < B; b++) {
		float mx = -INFINITY;
		for (int v = 0; v < V; v++) mx = fmaxf(mx, logits[b][v]);
		float z = 0.0f;
		for (int v = 0; v < V; v++) {
			float p = expf(logits[b][v] - mx);
			z += p >= min_p ? p : 0.0f;
		}
		for (int v = 0; v < V; v++) {
			float p = expf(logits[b][v] - mx);
			probs[b][v] = p >= min_p ? p / z : 0.0f;
		}
	}
}
