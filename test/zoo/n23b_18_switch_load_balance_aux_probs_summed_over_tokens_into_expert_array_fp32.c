/* Switch Transformer's load-balancing loss inputs, written as the loss code reads: for
 * each token the router softmax, then P[e] += p / T (mean router prob per expert) and
 * f[e] += 1 / T for the argmax expert: sums over tokens into per-expert outputs. */
#include <math.h>

void switch_aux_stats(int T, int E, const float logits[T][E], float P[E], float f[E])
{
	for (int e = 0; e < E; e++) {
		P[e] = 0.0f;
		f[e] = 0.0f;
	}
#pragma fuse kernel(switch_aux_stats) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		int arg = 0;
		for (int e = 0; e < E; e++)
			if (logits[t][e] > m) {
				m = logits[t][e];
				arg = e;
			}
		float z = 0.0f;
		for (int e = 0; e < E; e++)
			z += expf(logits[t][e] - m);
		for (int e = 0; e < E; e++)
			P[e] += expf(logits[t][e] - m) / z / T;
		f[arg] += 1.0f / T;
	}
}
