/* row_xent_mean_loss_out: F.cross_entropy(logits, target) with reduction='mean': every
 * token adds its loss divided by the token count to loss[0], which the caller zeroed.
 * fp16 logits [T][V], int32 targets.
 * Style: the mean accumulated straight into a one-element output inside the token loop
 * (a sum across the rows); a log-sum-exp local; no strategy clause. */
#include <math.h>

void xent_mean_out(int T, int V, const _Float16 logits[T][V], const int target[T], float loss[1])
{
#pragma fuse kernel(xent_mean_out) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, (float)logits[t][v]);
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z += expf((float)logits[t][v] - m);
		float lse = m + logf(z);
		loss[0] += (lse - (float)logits[t][target[t]]) / (float)T;
	}
}
