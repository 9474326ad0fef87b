/* How many tokens share the top logit (a greedy decoder checking that its argmax is unique):
 * the max, then an int count of the elements equal to it, and the log-sum-exp. */
#include <math.h>

void top_ties(int B, int V, const _Float16 x[B][V], int nties[B], float lse[B])
{
#pragma fuse kernel(top_ties) parallel(b)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++) m = fmaxf(m, (float)x[b][v]);
		int n = 0;
		float s = 0.0f;
		for (int v = 0; v < V; v++) {
			if ((float)x[b][v] == m) n++;
			s += expf((float)x[b][v] - m);
		}
		nties[b] = n;
		lse[b] = m + logf(s);
	}
}
