/* logits.masked_fill(~mask, -inf).logsumexp(-1) as a retrieval / CTC-style scorer ports it, with the
 * all-masked guard torch gives (-inf): if (m == -inf) lse = -inf else m + log(sum). uint8 mask (1 = keep). */
#include <math.h>
#include <stdint.h>
void masked_lse(int N, int K, const float scores[N][K], const uint8_t mask[N][K], float lse[N])
{
#pragma fuse kernel(masked_lse)
	for (int n = 0; n < N; n++) {
		float m = -INFINITY;
		for (int k = 0; k < K; k++) if (mask[n][k]) m = fmaxf(m, scores[n][k]);
		float s = 0.0f;
		for (int k = 0; k < K; k++) if (mask[n][k]) s += expf(scores[n][k] - m);
		lse[n] = (m == -INFINITY) ? -INFINITY : m + logf(s);
	}
}
