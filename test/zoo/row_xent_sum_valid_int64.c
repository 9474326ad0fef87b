/* row_xent_sum_valid_int64: a mean cross-entropy with ignore_index=-100 whose sum and
 * count the caller divides: the per-token losses and the valid count are accumulated
 * straight into one-element outputs (loss_sum[0] += ..., n_valid[0] += ...; the caller
 * zeroes them). fp32 logits [T][V], int64 targets.
 * Style: sums across the token loop under an if on the target; rolling. */
#include <math.h>
#include <stdint.h>

void xent_sum(int T, int V, const float logits[T][V], const int64_t target[T], float loss_sum[1], float n_valid[1])
{
#pragma fuse kernel(xent_sum) parallel(t) rolling(v)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, logits[t][v]);
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z += expf(logits[t][v] - m);
		if (target[t] != -100) {
			loss_sum[0] += m + logf(z) - logits[t][target[t]];
			n_valid[0] += 1.0f;
		}
	}
}
