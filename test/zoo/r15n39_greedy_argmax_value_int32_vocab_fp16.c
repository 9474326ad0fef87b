/* Greedy sampling: next token = argmax over a 32000-entry vocabulary of fp16 logits, also the
 * chosen token's log-probability (logit - logsumexp); the first maximum wins (strict >). */
#include <math.h>
#include <stdint.h>

void greedy(int B, int V, const _Float16 logits[B][V], int32_t next_token[B], float logprob[B])
{
#pragma fuse kernel(greedy) parallel(b)
	for (int b = 0; b < B; b++) {
		float best = -INFINITY;
		int32_t idx = 0;
		for (int v = 0; v < V; v++) {
			const float x = (float)logits[b][v];
			if (x > best) { best = x; idx = v; }
		}
		float z = 0.0f;
		for (int v = 0; v < V; v++) z += expf((float)logits[b][v] - best);
		next_token[b] = idx;
		logprob[b] = -logf(z);
	}
}
