/* Sequence-level loss (per sample mean of the masked token NLLs, as DAPO's "sample-level" loss
 * does), written as one region over the samples with the tokens inside: for each token a CE over
 * the vocab, summed into the sample with the mask, divided by the count. */
#include <math.h>
#include <stdint.h>

void seq_nll(int B, int T, int V, const _Float16 logits[B][T][V], const int32_t labels[B][T],
	     const uint8_t mask[B][T], float seq_loss[B])
{
#pragma fuse kernel(seq_nll) parallel(b)
	for (int b = 0; b < B; b++) {
		float tot = 0.0f;
		float cnt = 0.0f;
		for (int t = 0; t < T; t++) {
			float m = -INFINITY;
			for (int v = 0; v < V; v++)
				m = fmaxf(m, (float)logits[b][t][v]);
			float z = 0.0f;
			for (int v = 0; v < V; v++)
				z += expf((float)logits[b][t][v] - m);
			if (mask[b][t]) {
				tot += m + logf(z) - (float)logits[b][t][labels[b][t]];
				cnt += 1.0f;
			}
		}
		seq_loss[b] = cnt > 0.0f ? tot / cnt : 0.0f;
	}
}
