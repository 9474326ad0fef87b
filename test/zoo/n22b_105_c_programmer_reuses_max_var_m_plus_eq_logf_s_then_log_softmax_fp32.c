/* A C programmer's log-softmax that reuses the max variable for the log-sum-exp once the sum is
 * known (`m += logf(s);`), then y = x - m. Common in hand-written C where locals are recycled. */
#include <math.h>

void log_softmax_reuse(int N, int V, const float x[N][V], float y[N][V])
{
#pragma fuse kernel(log_softmax_reuse) parallel(n)
	for (int n = 0; n < N; n++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, x[n][v]);
		float s = 0.0f;
		for (int v = 0; v < V; v++)
			s += expf(x[n][v] - m);
		m += logf(s);
		for (int v = 0; v < V; v++)
			y[n][v] = x[n][v] - m;
	}
}
