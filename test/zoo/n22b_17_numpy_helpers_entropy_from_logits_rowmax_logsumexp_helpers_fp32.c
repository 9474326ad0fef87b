/* numpy-minded entropy of softmax(logits): helpers row_max(), logsumexp() mirroring np calls,
 * then H = lse - sum softmax * x. */
#include <math.h>

static float row_max(const float *x, int n)
{
	float m = x[0];
	for (int i = 1; i < n; i++)
		m = fmaxf(m, x[i]);
	return m;
}

static float logsumexp(const float *x, int n, float m)
{
	float s = 0.0f;
	for (int i = 0; i < n; i++)
		s += expf(x[i] - m);
	return m + logf(s);
}

void entropy(int N, int V, const float logits[N][V], float H[N])
{
#pragma fuse kernel(entropy) parallel(r)
	for (int r = 0; r < N; r++) {
		const float m = row_max(logits[r], V);
		const float lse = logsumexp(logits[r], V, m);
		float ex = 0.0f;
		for (int i = 0; i < V; i++)
			ex += expf(logits[r][i] - lse) * logits[r][i];
		H[r] = lse - ex;
	}
}
