/* n04_argmax_int64_out_fp16.c: greedy decoding, torch.argmax(logits, dim=-1) with the
 * max logit, fp16 logits, int64 token ids out (the dtype torch returns).
 * Style: best value and best index kept together under an if (the first index wins on
 * ties), the index in an int64_t local. Tabs. */
#include <math.h>
#include <stdint.h>

void argmax_rows(int B, int V, const _Float16 logits[B][V], int64_t next_token[B], float best_logit[B])
{
#pragma fuse kernel(argmax_rows) parallel(b)
	for (int b = 0; b < B; b++) {
		float best = -INFINITY;
		int64_t arg = 0;
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
