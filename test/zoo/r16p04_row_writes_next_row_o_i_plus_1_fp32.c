/* PROBE: a shifted-target softmax: row i's LSE written to out[i + 1] (labels shifted by one, as
 * a hand-written shift_logits does), out[0] left to the caller. */
#include <math.h>

void shifted_lse(int T, int V, const float x[T][V], float out[T + 1])
{
#pragma fuse kernel(shifted_lse) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++) m = fmaxf(m, x[t][v]);
		float s = 0.0f;
		for (int v = 0; v < V; v++) s += expf(x[t][v] - m);
		out[t + 1] = m + logf(s);
	}
}
