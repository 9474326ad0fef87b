/* PROBE (a count on final values): diagnostics of a sampler, the number of tokens whose softmax
 * probability exceeds eps (the "effective vocabulary"), beside the LSE. The count depends on the
 * final max and sum. */
#include <math.h>

void effective_vocab(int N, int V, float eps, const float x[N][V], int n_eff[N], float lse[N])
{
#pragma fuse kernel(effective_vocab) parallel(r)
	for (int r = 0; r < N; r++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, x[r][v]);
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z += expf(x[r][v] - m);
		int cnt = 0;
		for (int v = 0; v < V; v++)
			if (expf(x[r][v] - m) / z > eps)
				cnt++;
		n_eff[r] = cnt;
		lse[r] = m + logf(z);
	}
}
