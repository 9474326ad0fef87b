/* A textbook's entropy of the model's predictive distribution, literally -sum p log p with
 * p = softmax(logits) stored for the caller too, no guard for p == 0 (a student's port of
 * `-(p * p.log()).sum(-1)`; PyTorch gives NaN there as well when a p underflows to 0). */
#include <math.h>

void softmax_entropy(int N, int V, const float logits[N][V], float probs[N][V], float ent[N])
{
#pragma fuse kernel(softmax_entropy) parallel(n)
	for (int n = 0; n < N; n++) {
		float mx = -INFINITY;
		for (int v = 0; v < V; v++)
			mx = fmaxf(mx, logits[n][v]);
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z += expf(logits[n][v] - mx);
		float h = 0.0f;
		for (int v = 0; v < V; v++) {
			const float p = expf(logits[n][v] - mx) / z;
			probs[n][v] = p;
			h -= p * logf(p);
		}
		ent[n] = h;
	}
}
