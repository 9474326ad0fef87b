/* "Soft token" embedding (Gumbel-softmax relaxations, soft prompts): e = softmax(logits /
 * tau) @ E, a softmax over the vocab followed by a GEMV against the embedding table. A
 * numpy person's helpers: row_max, row_sumexp, then the weighted sum of table rows. */
#include <math.h>

static float row_max(const _Float16 *x, int n)
{
	float m = -INFINITY;
	for (int i = 0; i < n; i++)
		m = fmaxf(m, (float)x[i]);
	return m;
}

static float row_sumexp(const _Float16 *x, int n, float m, float inv_tau)
{
	float s = 0.0f;
	for (int i = 0; i < n; i++)
		s += expf(((float)x[i] - m) * inv_tau);
	return s;
}

void soft_embed(int B, int V, int D, float tau, const _Float16 logits[B][V],
		const _Float16 E[V][D], _Float16 out[B][D])
{
	const float inv_tau = 1.0f / tau;
#pragma fuse kernel(soft_embed) parallel(b)
	for (int b = 0; b < B; b++) {
		float m = row_max(logits[b], V);
		float z = row_sumexp(logits[b], V, m, inv_tau);
		for (int d = 0; d < D; d++) {
			float acc = 0.0f;
			for (int v = 0; v < V; v++)
				acc += expf(((float)logits[b][v] - m) * inv_tau) * (float)E[v][d];
			out[b][d] = (_Float16)(acc / z);
		}
	}
}
