/* A numerics-minded logsumexp: the max's own term is exactly 1, so lse = m + log1p(s - 1)
 * (accurate when one logit dominates), as in some JAX/SciPy-inspired C code. */
#include <math.h>

void lse_log1p(int N, int V, const float x[N][V], float lse[N])
{
#pragma fuse kernel(lse_log1p) parallel(n)
	for (int n = 0; n < N; n++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, x[n][v]);
		float s = 0.0f;
		for (int v = 0; v < V; v++)
			s += expf(x[n][v] - m);
		lse[n] = m + log1pf(s - 1.0f);
	}
}
