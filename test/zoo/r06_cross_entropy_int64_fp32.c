/* Per-token cross-entropy loss (F.cross_entropy(logits, target, reduction='none')), fp32
 * logits [T][V], int64 targets. loss[t] = logsumexp(logits[t]) - logits[t][target[t]].
 * Style: gather logits[t][target[t]] outside the reduction loops; fmaxf; exp/log in float;
 * splitk(v) because V is a vocabulary (long rows). */
#include <math.h>
#include <stdint.h>

void cross_entropy_fwd(int T, int V, const float logits[T][V], const int64_t target[T],
		       float loss[T])
{
#pragma fuse kernel(cross_entropy_fwd) parallel(t) splitk(v)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, logits[t][v]);
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z += expf(logits[t][v] - m);
		loss[t] = m + logf(z) - logits[t][target[t]];
	}
}
