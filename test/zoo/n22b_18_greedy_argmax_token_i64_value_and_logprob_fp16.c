/* Greedy decoding step in a C inference engine: next token = argmax(logits) (first max wins,
 * torch.argmax), also its logit and its log-prob (for the API's `logprobs`). */
#include <math.h>
#include <stdint.h>

void greedy_step(int B, int V, const _Float16 logits[B][V], int64_t next_token[B], float top_logit[B],
		 float top_logprob[B])
{
#pragma fuse kernel(greedy_step) parallel(b)
	for (int b = 0; b < B; b++) {
		float best = -INFINITY;
		int64_t arg = 0;
		for (int v = 0; v < V; v++) {
			const float x = (float)logits[b][v];
			if (x > best) {
				best = x;
				arg = v;
			}
		}
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z += expf((float)logits[b][v] - best);
		next_token[b] = arg;
		top_logit[b] = best;
		top_logprob[b] = -logf(z);
	}
}
