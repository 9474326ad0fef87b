/* row_xent_onehot_logp.c: cross-entropy with one-hot targets written as PyTorch's
 * -(target * log_softmax(logits)).sum(-1): the log-probability x - m - log(sum) is formed
 * per class inside the final reduction.
 * Style: fp32, logits [N][V] and one-hot targets [N][V], max / sum of exp, log of the sum
 * as a local, then loss = -sum y * (x - m - logz). splitk(v) over the vocabulary. */
#include <math.h>

void xent_onehot(int N, int V, const float logits[N][V], const float target[N][V], float loss[N])
{
#pragma fuse kernel(xent_onehot) parallel(n) splitk(v)
	for (int n = 0; n < N; n++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, logits[n][v]);
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z += expf(logits[n][v] - m);
		float logz = logf(z);
		float acc = 0.0f;
		for (int v = 0; v < V; v++)
			acc += target[n][v] * (logits[n][v] - m - logz);
		loss[n] = -acc;
	}
}
