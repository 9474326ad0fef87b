/* An HPC engineer's softmax with a Kahan-compensated denominator (their habit for long rows):
 * y = e - c; t = sum + y; c = (t - sum) - y; sum = t. Reassociating this would silently drop
 * the compensation. */
#include <math.h>

void softmax_kahan(int N, int V, const float *restrict x, float *restrict y)
{
#pragma fuse kernel(softmax_kahan) parallel(r)
	for (int r = 0; r < N; r++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, x[r * V + v]);
		float sum = 0.0f, comp = 0.0f;
		for (int v = 0; v < V; v++) {
			const float e = expf(x[r * V + v] - m);
			const float yk = e - comp;
			const float t = sum + yk;
			comp = (t - sum) - yk;
			sum = t;
		}
		for (int v = 0; v < V; v++)
			y[r * V + v] = expf(x[r * V + v] - m) / sum;
	}
}
