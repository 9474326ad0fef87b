/* Cross-entropy over a flat [T][V] logits pointer with int64 labels: a row pointer local
 * `row = logits + (long)t * V`, fmaxf max, logf(se) + mx - row[labels[t]]. */
#include <math.h>
#include <stdint.h>
/* Cross-entropy over a flat [T, V] logits buffer with int64 labels. */
void cross_entropy(int T, int V, const float *logits, const int64_t *labels, float *loss)
{
#pragma fuse kernel(cross_entropy) parallel(t)
	for (int t = 0; t < T; t++) {
		const float *row = logits + (long)t * V;
		float mx = -INFINITY;
		for (int c = 0; c < V; c++)
			mx = fmaxf(mx, row[c]);
		float se = 0.0f;
		for (int c = 0; c < V; c++)
			se += expf(row[c] - mx);
		loss[t] = logf(se) + mx - row[labels[t]];
	}
}
