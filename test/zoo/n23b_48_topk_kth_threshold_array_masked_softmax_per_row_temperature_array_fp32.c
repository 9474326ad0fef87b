/* Top-k sampling after the k-th largest value is known (from a partial sort kernel):
 * logits below kth[r] are dropped, the rest softmaxed at the row's own temperature
 * temps[r] (per-request sampling params). A serving engineer's C. */
#include <math.h>

void topk_softmax_rows(int R, int V, const float logits[R][V], const float kth[R], const float temps[R],
		       float probs[R][V])
{
#pragma fuse kernel(topk_softmax_rows) parallel(r)
	for (int r = 0; r < R; r++) {
		const float inv_t = 1.0f / temps[r];
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			if (logits[r][v] >= kth[r])
				m = fmaxf(m, logits[r][v] * inv_t);
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			if (logits[r][v] >= kth[r])
				z += expf(logits[r][v] * inv_t - m);
		for (int v = 0; v < V; v++)
			probs[r][v] = logits[r][v] >= kth[r] ? expf(logits[r][v] * inv_t - m) / z : 0.0f;
	}
}
