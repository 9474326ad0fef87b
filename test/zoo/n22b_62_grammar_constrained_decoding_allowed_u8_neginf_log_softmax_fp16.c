/* Grammar-constrained decoding (outlines / xgrammar style): a token bitmask expanded to bytes,
 * disallowed tokens set to -inf, then log-softmax for the sampler. A row with no allowed token
 * gives NaN in PyTorch as in C. */
#include <math.h>
#include <stdint.h>

void constrained_logprobs(int B, int V, const _Float16 logits[B][V], const uint8_t allowed[B][V],
			  float logp[B][V])
{
#pragma fuse kernel(constrained_logprobs) parallel(b)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++) {
			const float x = allowed[b][v] ? (float)logits[b][v] : -INFINITY;
			m = fmaxf(m, x);
		}
		float z = 0.0f;
		for (int v = 0; v < V; v++) {
			const float x = allowed[b][v] ? (float)logits[b][v] : -INFINITY;
			z += expf(x - m);
		}
		const float lz = m + logf(z);
		for (int v = 0; v < V; v++) {
			const float x = allowed[b][v] ? (float)logits[b][v] : -INFINITY;
			logp[b][v] = x - lz;
		}
	}
}
