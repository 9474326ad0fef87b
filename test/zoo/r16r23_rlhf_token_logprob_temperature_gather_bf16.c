/* RLHF (PPO/GRPO) per-token log-prob of the sampled token under temperature: logits / T, then
 * logprob = x[tok] / T - logsumexp(x / T); Llama-3 vocabulary 128256, bf16, int64 tokens. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void token_logprob(int T, float temperature, const fusecc_bf16 logits[T][128256], const int64_t tokens[T], float logprob[T])
{
#pragma fuse kernel(token_logprob) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int v = 0; v < 128256; v++) m = fmaxf(m, fusecc_bf16_to_float(logits[t][v]) / temperature);
		float s = 0.0f;
		for (int v = 0; v < 128256; v++) s += expf(fusecc_bf16_to_float(logits[t][v]) / temperature - m);
		logprob[t] = fusecc_bf16_to_float(logits[t][tokens[t]]) / temperature - m - logf(s);
	}
}
