/* vLLM's Sampler.gather_logprobs: logprobs = log_softmax(logits) (fp32), the sampled token's
 * logprob gathered by token id, and its rank = 1 + number of logprobs strictly greater
 * (batched_count_greater_than); rank stored as int64 as torch returns it. */
#include <math.h>
#include <stdint.h>

void gather_logprobs(int num_tokens, int vocab_size, const float logits[num_tokens][vocab_size],
		const int64_t token_ids[num_tokens], float token_logprob[num_tokens], int64_t token_rank[num_tokens])
{
#pragma fuse kernel(gather_logprobs) parallel(t)
	for (int t = 0; t < num_tokens; t++) {
		float mx = -INFINITY;
		for (int v = 0; v < vocab_size; v++) mx = fmaxf(mx, logits[t][v]);
		float se = 0.0f;
		for (int v = 0; v < vocab_size; v++) se += expf(logits[t][v] - mx);
		const float lse = mx + logf(se);
		const float chosen = logits[t][token_ids[t]] - lse;
		int64_t greater = 0;
		for (int v = 0; v < vocab_size; v++)
			if (logits[t][v] - lse > chosen) greater++;
		token_logprob[t] = chosen;
		token_rank[t] = greater + 1;
	}
}
