/* Probs below eps (relative to the top token) flushed to zero before the normaliser, the
 * flush written as a redefinition of the local under an if. */
#include <math.h>

void flush_probs(int B, int V, float eps, const float x[B][V], float p[B][V])
{
#pragma fuse kernel(flush_probs) parallel(b)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++) m = fmaxf(m, x[b][v]);
		float z = 0.0f;
		for (int v = 0; v < V; v++) {
			float e = expf(x[b][v] - m);
			if (e < eps) e = 0.0f;
			z += e;
		}
		for (int v = 0; v < V; v++) {
			float e = expf(x[b][v] - m);
			p[b][v] = e < eps ? 0.0f : e / z;
		}
	}
}
