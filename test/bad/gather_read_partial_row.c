/* logp is stored from column 1 only, so logp[t][target[t]] may read an element the region
 * did not store in this row (column 0): the read cannot be taken as the stored value, and
 * an index read of an array the region stores stays refused. */
#include <math.h>
void nll(int T, const float logits[T][1000], const int target[T], float logp[T][1000], float out[T])
{
#pragma fuse kernel(nll) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int v = 0; v < 1000; v++) m = fmaxf(m, logits[t][v]);
		float s = 0.0f;
		for (int v = 0; v < 1000; v++) s += expf(logits[t][v] - m);
		for (int v = 1; v < 1000; v++) logp[t][v] = logits[t][v] - m - logf(s);
		out[t] = -logp[t][target[t]];
	}
}
