/* Probe: a row loop whose body writes the next row: the shifted log-probs of a causal LM
 * stored one position later (out[t + 1]) with out of T + 1 rows. */
#include <math.h>

void shifted_lp(int T, int V, const float x[T][V], float out[T + 1][V])
{
#pragma fuse kernel(shifted_lp) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++) m = fmaxf(m, x[t][v]);
		float s = 0.0f;
		for (int v = 0; v < V; v++) s += expf(x[t][v] - m);
		for (int v = 0; v < V; v++) out[t + 1][v] = x[t][v] - m - logf(s);
	}
}
