/* Probabilities written as exp(x - lse) (no division), alongside the log-probs, as vLLM's
 * sampler computes both from one lse. fp16 logits, fp32 outputs. */
#include <math.h>

void probs_and_logprobs(int R, int V, const _Float16 x[R][V], float logp[R][V], float p[R][V])
{
#pragma fuse kernel(probs_and_logprobs) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, (float)x[r][v]);
		float s = 0.0f;
		for (int v = 0; v < V; v++)
			s += expf((float)x[r][v] - m);
		const float lse = m + logf(s);
		for (int v = 0; v < V; v++) {
			logp[r][v] = (float)x[r][v] - lse;
			p[r][v] = expf((float)x[r][v] - lse);
		}
	}
}
