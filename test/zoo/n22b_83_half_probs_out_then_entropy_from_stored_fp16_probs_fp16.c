/* An inference server returns half-precision probabilities and their entropy: probs stored as
 * fp16 (the API tensor), the entropy computed from the stored fp16 values, -sum p log p, as the
 * Python side would from the returned tensor. */
#include <math.h>

void probs_and_entropy(int N, int V, const _Float16 logits[N][V], _Float16 probs[N][V], float ent[N])
{
#pragma fuse kernel(probs_and_entropy) parallel(n)
	for (int n = 0; n < N; n++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, (float)logits[n][v]);
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z += expf((float)logits[n][v] - m);
		for (int v = 0; v < V; v++)
			probs[n][v] = (_Float16)(expf((float)logits[n][v] - m) / z);
		float h = 0.0f;
		for (int v = 0; v < V; v++)
			h -= (float)probs[n][v] * logf((float)probs[n][v]);
		ent[n] = h;
	}
}
