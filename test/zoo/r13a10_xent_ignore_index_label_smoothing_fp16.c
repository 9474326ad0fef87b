/* F.cross_entropy(logits, target, ignore_index=-1, label_smoothing=eps, reduction='none')
 * on fp16 logits; ignored rows give 0. */
#include <math.h>
#include <stdint.h>

void xent_ls(int T, int V, float eps, const _Float16 logits[T][V], const int64_t target[T],
	     float loss[T])
{
#pragma fuse kernel(xent_ls) parallel(t)
	for (int t = 0; t < T; t++) {
		float mx = -INFINITY;
		for (int v = 0; v < V; v++) mx = fmaxf(mx, (float)logits[t][v]);
		float se = 0.0f, sx = 0.0f;
		for (int v = 0; v < V; v++) {
			se += expf((float)logits[t][v] - mx);
			sx += (float)logits[t][v];
		}
		const float lse = mx + logf(se);
		if (target[t] == -1) {
			loss[t] = 0.0f;
		} else {
			const float nll = lse - (float)logits[t][target[t]];
			const float smooth = lse - sx / (float)V;
			loss[t] = (1.0f - eps) * nll + eps * smooth;
		}
	}
}
