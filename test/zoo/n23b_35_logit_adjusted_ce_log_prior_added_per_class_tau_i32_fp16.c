/* Logit-adjusted cross-entropy for long-tailed classification (Menon et al.): logits +
 * tau * log_prior[c] (the log class priors, precomputed) before the softmax, class-index targets. A PyTorch user with the
 * adjustment computed inline in every loop. */
#include <math.h>
#include <stdint.h>

void logit_adjusted_ce(int N, int C, float tau, const _Float16 logits[N][C], const float log_prior[C],
		       const int32_t y[N], float loss[N])
{
#pragma fuse kernel(logit_adjusted_ce) parallel(n)
	for (int n = 0; n < N; n++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			m = fmaxf(m, (float)logits[n][c] + tau * log_prior[c]);
		float z = 0.0f;
		for (int c = 0; c < C; c++)
			z += expf((float)logits[n][c] + tau * log_prior[c] - m);
		loss[n] = m + logf(z) - ((float)logits[n][y[n]] + tau * log_prior[y[n]]);
	}
}
