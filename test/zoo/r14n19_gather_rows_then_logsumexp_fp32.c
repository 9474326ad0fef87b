/* Gather candidate rows by index then logsumexp of their scores (sampled softmax). */
#include <math.h>
#include <stdint.h>
void gather_lse(int N, int K, int V, const float logits[N][V], const int32_t cand[N][K], float lse[N])
{
#pragma fuse kernel(gather_lse) parallel(n)
	for (int n = 0; n < N; n++) {
		float m = -INFINITY;
		for (int k = 0; k < K; k++) m = fmaxf(m, logits[n][cand[n][k]]);
		float s = 0;
		for (int k = 0; k < K; k++) s += expf(logits[n][cand[n][k]] - m);
		lse[n] = m + logf(s);
	}
}
