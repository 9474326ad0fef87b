/* row_xent_label_smoothing.c: F.cross_entropy(logits, target, label_smoothing=ls,
 * reduction='none'): the loss against the smoothed target distribution
 * q = (1 - ls) * onehot(target) + ls / V, i.e. -sum_v q_v * log_softmax(logits)_v.
 * fp32 logits, int32 targets, run-time V.
 * Style: max, sum of exp, logz = logf(z), then the smoothed weight built per class as a
 * local (a ternary on v == target) times the log-probability, summed; rolling(v). fusecc
 * accumulates sum q*(x - k) and sum q (k = logits[t][0]) and recombines after the pass.
 * Written for the separable-sums work. */
#include <math.h>

void xent_smooth(int T, int V, float ls, const float logits[T][V], const int target[T], float loss[T])
{
#pragma fuse kernel(xent_smooth) parallel(t) rolling(v)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, logits[t][v]);
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z += expf(logits[t][v] - m);
		float logz = logf(z);
		float nll = 0.0f;
		for (int v = 0; v < V; v++) {
			float q = (v == target[t] ? 1.0f - ls : 0.0f) + ls / V;
			nll -= q * (logits[t][v] - m - logz);
		}
		loss[t] = nll;
	}
}
