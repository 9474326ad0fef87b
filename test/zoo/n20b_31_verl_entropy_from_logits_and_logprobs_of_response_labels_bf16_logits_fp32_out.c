/* verl's torch_functional: entropy_from_logits (pd = softmax(logits); entropy = logsumexp(logits)
 * - sum(pd * logits)) and logprobs_from_logits (log_softmax gathered at the response label),
 * both per token of the response, bf16 logits, fp32 results. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void entropy_and_logprobs(int bs, int resp_len, int vocab, const fusecc_bf16 logits[bs][resp_len][vocab],
		const int64_t responses[bs][resp_len], float entropy[bs][resp_len], float log_probs[bs][resp_len])
{
#pragma fuse kernel(entropy_and_logprobs) parallel(b, t)
	for (int b = 0; b < bs; b++)
		for (int t = 0; t < resp_len; t++) {
			float m = -INFINITY;
			for (int v = 0; v < vocab; v++) m = fmaxf(m, fusecc_bf16_to_float(logits[b][t][v]));
			float z = 0.0f, zx = 0.0f;
			for (int v = 0; v < vocab; v++) {
				const float x = fusecc_bf16_to_float(logits[b][t][v]);
				const float e = expf(x - m);
				z += e;
				zx += e * x;
			}
			const float lse = m + logf(z);
			entropy[b][t] = lse - zx / z;
			log_probs[b][t] = fusecc_bf16_to_float(logits[b][t][responses[b][t]]) - lse;
		}
}
