/* Entropy of the predicted distribution with the log-sum-exp saved per row and read back
 * by the next loop (`lse[t] = ...;` then `x[t][v] - lse[t]`), a PyTorch port of
 * `-(p * logp).sum(-1)` with logp = x - logsumexp(x). */
#include <math.h>

void pred_entropy(int T, int V, const float x[T][V], float lse[T], float ent[T])
{
#pragma fuse kernel(pred_entropy) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, x[t][v]);
		float s = 0.0f;
		for (int v = 0; v < V; v++)
			s += expf(x[t][v] - m);
		lse[t] = m + logf(s);
		float h = 0.0f;
		for (int v = 0; v < V; v++)
			h -= expf(x[t][v] - lse[t]) * (x[t][v] - lse[t]);
		ent[t] = h;
	}
}
