/* Jensen-Shannon divergence between two logit rows, written by a numpy user who computes
 * log M = logaddexp(log p, log q) - log 2 (no probabilities of M ever formed), with
 * np.logaddexp and the log_softmax as helpers. */
#include <math.h>

static float logaddexp(float a, float b)
{
	float m = fmaxf(a, b);
	return m + log1pf(expf(-fabsf(a - b)));
}

static float logsumexp(const float *x, int n)
{
	float m = -INFINITY;
	for (int i = 0; i < n; i++)
		m = fmaxf(m, x[i]);
	float s = 0.0f;
	for (int i = 0; i < n; i++)
		s += expf(x[i] - m);
	return m + logf(s);
}

void jsd_rows(int N, int C, const float p_logits[N][C], const float q_logits[N][C], float jsd[N])
{
#pragma fuse kernel(jsd_rows) parallel(n)
	for (int n = 0; n < N; n++) {
		const float lzp = logsumexp(p_logits[n], C);
		const float lzq = logsumexp(q_logits[n], C);
		float acc = 0.0f;
		for (int c = 0; c < C; c++) {
			const float lp = p_logits[n][c] - lzp;
			const float lq = q_logits[n][c] - lzq;
			const float lm = logaddexp(lp, lq) - 0.69314718f;
			acc += 0.5f * expf(lp) * (lp - lm) + 0.5f * expf(lq) * (lq - lm);
		}
		jsd[n] = acc;
	}
}
