/* Sampled softmax (TF's sampled_softmax_loss / word2vec negative sampling, as a C trainer writes
 * it): for token t the logits are dots of its hidden state with the output embeddings of NS
 * candidate ids (int32, candidate 0 the true class), minus log of the sampling probability;
 * loss = logsumexp - logit[0]. fp32, run-time hidden size. */
#include <math.h>
#include <stdint.h>

void sampled_softmax_loss(int T, int E, int NS, int V, const int32_t cand[T][NS], const float logq[T][NS],
			  const float h[T][E], const float W[V][E], float loss[T])
{
#pragma fuse kernel(sampled_softmax_loss) parallel(t) rolling(c)
	for (int t = 0; t < T; t++) {
		float mx = -INFINITY;
		for (int c = 0; c < NS; c++) {
			float z = 0.0f;
			for (int e = 0; e < E; e++) z += h[t][e] * W[cand[t][c]][e];
			mx = fmaxf(mx, z - logq[t][c]);
		}
		float se = 0.0f, z0 = 0.0f;
		for (int c = 0; c < NS; c++) {
			float z = 0.0f;
			for (int e = 0; e < E; e++) z += h[t][e] * W[cand[t][c]][e];
			se += expf(z - logq[t][c] - mx);
			if (c == 0) z0 = z - logq[t][c];
		}
		loss[t] = mx + logf(se) - z0;
	}
}
