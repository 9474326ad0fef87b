/* Returning the logprobs of K candidate tokens (OpenAI's top_logprobs once the ids are
 * known; speculative decoding's draft ids): lse over the vocab, then a gather at K ids per
 * row. A serving engineer's C, bf16 logits, int32 ids, K = 8. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

#define K 8

void candidate_logprobs(int R, int V, const fusecc_bf16 logits[R][V], const int32_t ids[R][K], float out[R][K])
{
#pragma fuse kernel(candidate_logprobs) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, fusecc_bf16_to_float(logits[r][v]));
		float s = 0.0f;
		for (int v = 0; v < V; v++)
			s += expf(fusecc_bf16_to_float(logits[r][v]) - m);
		const float lse = m + logf(s);
		for (int k = 0; k < K; k++)
			out[r][k] = fusecc_bf16_to_float(logits[r][ids[r][k]]) - lse;
	}
}
