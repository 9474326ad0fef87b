/* A sampler's first step (llama.cpp / HF generate): logits divided by a temperature read through
 * a pointer, softmax probabilities stored, and the log-probability of the token chosen last
 * step (int32 ids) returned. fp32, vocabulary run-time. */
#include <math.h>
#include <stdint.h>

void temp_softmax(int B, int V, const float *temperature, const int32_t prev_tok[B], const float logits[B][V], float probs[B][V],
		  float tok_logprob[B])
{
#pragma fuse kernel(temp_softmax) parallel(b) rolling(v)
	for (int b = 0; b < B; b++) {
		const float inv_t = 1.0f / *temperature;
		float mx = -INFINITY;
		for (int v = 0; v < V; v++) mx = fmaxf(mx, logits[b][v] * inv_t);
		float z = 0.0f;
		for (int v = 0; v < V; v++) z += expf(logits[b][v] * inv_t - mx);
		for (int v = 0; v < V; v++) probs[b][v] = expf(logits[b][v] * inv_t - mx) / z;
		tok_logprob[b] = logits[b][prev_tok[b]] * inv_t - mx - logf(z);
	}
}
