/* An OpenAI-compatible server's logprobs: logits + logit_bias[request][V] (additive, from the API's
 * logit_bias map densified), divided by temperature, log-softmax into logprobs. */
#include <math.h>

void biased_logprobs(int R, int V, const _Float16 logits[R][V], const float logit_bias[R][V],
		     const float temperature[R], float logprobs[R][V])
{
#pragma fuse kernel(biased_logprobs) parallel(r)
	for (int r = 0; r < R; r++) {
		const float inv_t = 1.0f / temperature[r];
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, ((float)logits[r][v] + logit_bias[r][v]) * inv_t);
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z += expf(((float)logits[r][v] + logit_bias[r][v]) * inv_t - m);
		const float lz = m + logf(z);
		for (int v = 0; v < V; v++)
			logprobs[r][v] = ((float)logits[r][v] + logit_bias[r][v]) * inv_t - lz;
	}
}
