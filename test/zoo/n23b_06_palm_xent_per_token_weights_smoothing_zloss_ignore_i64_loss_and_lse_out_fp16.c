/* PaLM / T5X style token loss: label-smoothed CE + z_loss * lse^2, per-token loss weights
 * (packing masks), ignore_index -100. Outputs the weighted per-token loss and the lse for
 * the backward. PyTorch port, fp16 logits. */
#include <math.h>
#include <stdint.h>

void xent_smooth_zloss_weighted(int T, int V, float smoothing, float z_loss,
				const _Float16 logits[T][V], const int64_t labels[T],
				const float weights[T], float loss[T], float lse_out[T])
{
#pragma fuse kernel(xent_smooth_zloss_weighted) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, (float)logits[t][v]);
		float se = 0.0f, sum_logits = 0.0f;
		for (int v = 0; v < V; v++) {
			se += expf((float)logits[t][v] - m);
			sum_logits += (float)logits[t][v];
		}
		const float lse = m + logf(se);
		lse_out[t] = lse;
		if (labels[t] == -100) {
			loss[t] = 0.0f;
			continue;
		}
		const float nll = lse - (float)logits[t][labels[t]];
		const float smooth = lse - sum_logits / V;
		const float ce = (1.0f - smoothing) * nll + smoothing * smooth;
		loss[t] = weights[t] * (ce + z_loss * lse * lse);
	}
}
