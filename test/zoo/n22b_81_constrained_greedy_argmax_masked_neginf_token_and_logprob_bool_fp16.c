/* Grammar-constrained greedy decoding: disallowed tokens at -inf (bool mask per request), then
 * argmax (first max, torch.argmax) and the chosen token's log-prob. A row with nothing allowed
 * returns token 0 and NaN, as the C does. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

void constrained_greedy(int B, int V, const _Float16 logits[B][V], const bool allowed[B][V], int64_t tok[B],
			float logprob[B])
{
#pragma fuse kernel(constrained_greedy) parallel(b)
	for (int b = 0; b < B; b++) {
		float best = -INFINITY;
		int64_t arg = 0;
		for (int v = 0; v < V; v++) {
			const float x = allowed[b][v] ? (float)logits[b][v] : -INFINITY;
			if (x > best) {
				best = x;
				arg = v;
			}
		}
		float z = 0.0f;
		for (int v = 0; v < V; v++) {
			const float x = allowed[b][v] ? (float)logits[b][v] : -INFINITY;
			z += expf(x - best);
		}
		tok[b] = arg;
		logprob[b] = -logf(z);
	}
}
