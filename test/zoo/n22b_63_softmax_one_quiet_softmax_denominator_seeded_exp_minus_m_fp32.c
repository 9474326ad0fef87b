/* Evan Miller's "softmax_1" (quiet softmax, off-by-one): exp(x_i) / (1 + sum_j exp(x_j)), stable
 * form with m = max(0, max_j x_j): the 1 becomes exp(-m), which seeds the denominator. */
#include <math.h>

void softmax_one(int N, int V, const float x[N][V], float y[N][V])
{
#pragma fuse kernel(softmax_one) parallel(n)
	for (int n = 0; n < N; n++) {
		float m = 0.0f;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, x[n][v]);
		float z = expf(-m);
		for (int v = 0; v < V; v++)
			z += expf(x[n][v] - m);
		for (int v = 0; v < V; v++)
			y[n][v] = expf(x[n][v] - m) / z;
	}
}
