/* Per-sequence summed NLL over a packed batch (cu_seqlens, no padding), a cascade: the
 * LSE over the vocab for each token, summed over the sequence's tokens. A training-infra
 * engineer's C: the sequence is the parallel row; tokens and vocab are nested loops. */
#include <math.h>
#include <stdint.h>

void packed_seq_nll(int S, int V, int total, const _Float16 logits[total][V], const int32_t labels[total],
		    const int32_t cu_seqlens[S + 1], float seq_nll[S])
{
#pragma fuse kernel(packed_seq_nll) parallel(s)
	for (int s = 0; s < S; s++) {
		float nll = 0.0f;
		for (int t = cu_seqlens[s]; t < cu_seqlens[s + 1]; t++) {
			float m = -INFINITY;
			for (int v = 0; v < V; v++)
				m = fmaxf(m, (float)logits[t][v]);
			float z = 0.0f;
			for (int v = 0; v < V; v++)
				z += expf((float)logits[t][v] - m);
			nll += m + logf(z) - (float)logits[t][labels[t]];
		}
		seq_nll[s] = nll;
	}
}
