/* F.cross_entropy(logits, target, ignore_index=ii, reduction='none') for a causal LM's
 * shifted labels: int64 targets, ignored tokens get loss 0, fp16 logits. */
#include <math.h>
#include <stdint.h>

void ce_none(int T, int V, int ignore_index, const _Float16 logits[T][V], const int64_t target[T],
	     float loss[T])
{
#pragma fuse kernel(ce_none) parallel(t)
	for (int t = 0; t < T; t++) {
		float mx = -INFINITY;
		for (int v = 0; v < V; v++)
			mx = fmaxf(mx, (float)logits[t][v]);
		float se = 0.0f;
		for (int v = 0; v < V; v++)
			se += expf((float)logits[t][v] - mx);
		const int64_t y = target[t];
		if (y == ignore_index)
			loss[t] = 0.0f;
		else
			loss[t] = mx + logf(se) - (float)logits[t][y];
	}
}
