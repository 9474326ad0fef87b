/* rw15: greedy decoding, torch.argmax(logits, dim=-1): the index of the largest logit per
 * row (first one on ties), V ~ 128256, fp16 logits, int64 token ids out, plus the max
 * logit.  Style: best value and best index kept together in an if. */
#include <math.h>
#include <stdint.h>

void argmax_rows(int B, int V, const _Float16 logits[B][V], int32_t next_token[B], float best_logit[B])
{
#pragma fuse kernel(argmax_rows) parallel(b)
	for (int b = 0; b < B; b++) {
		float best = -INFINITY;
		int arg = 0;
		for (int v = 0; v < V; v++) {
			float l = (float)logits[b][v];
			if (l > best) {
				best = l;
				arg = v;
			}
		}
		next_token[b] = arg;
		best_logit[b] = best;
	}
}
