/* PyTorch eager port of `x - x.logsumexp(-1, keepdim=True)` op by op: one region computes the
 * lse tensor (an output the caller also keeps), a second region subtracts it. */
#include <math.h>

void log_softmax_two_ops(int N, int V, const _Float16 x[N][V], float lse[N], _Float16 y[N][V])
{
#pragma fuse kernel(lse_op)
	for (int n = 0; n < N; n++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, (float)x[n][v]);
		float s = 0.0f;
		for (int v = 0; v < V; v++)
			s += expf((float)x[n][v] - m);
		lse[n] = m + logf(s);
	}
#pragma fuse kernel(sub_op)
	for (int n = 0; n < N; n++)
		for (int v = 0; v < V; v++)
			y[n][v] = (_Float16)((float)x[n][v] - lse[n]);
}
