/* HPC/C89 habits: every local declared at the top of the row, the denominator inverted in place
 * (`sum = 1.0f / sum;`) so the store loop multiplies, a scratch `e` reused by two loops. */
#include <math.h>

void softmax_c89(int N, int V, const float *x, float *y)
{
	int n, v;
#pragma fuse kernel(softmax_c89) parallel(n)
	for (n = 0; n < N; n++) {
		float mx, sum, e;
		mx = -INFINITY;
		for (v = 0; v < V; v++)
			if (x[n * V + v] > mx)
				mx = x[n * V + v];
		sum = 0.0f;
		for (v = 0; v < V; v++) {
			e = expf(x[n * V + v] - mx);
			sum += e;
		}
		sum = 1.0f / sum;
		for (v = 0; v < V; v++) {
			e = expf(x[n * V + v] - mx);
			y[n * V + v] = e * sum;
		}
	}
}
