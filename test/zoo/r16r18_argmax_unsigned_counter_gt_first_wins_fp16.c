/* Greedy decode argmax in the llama.c style: unsigned counters, max seeded with element 0 and the
 * loop from 1, strict > (first index wins), int32 output; GPT-2 vocabulary 50257. */
#include <stdint.h>

void argmax_tok(unsigned B, const _Float16 logits[B][50257], int32_t next[B])
{
#pragma fuse kernel(argmax_tok) parallel(b)
	for (unsigned b = 0; b < B; b++) {
		int32_t best_i = 0;
		float best_v = (float)logits[b][0];
		for (unsigned v = 1; v < 50257; v++) {
			if ((float)logits[b][v] > best_v) { best_v = (float)logits[b][v]; best_i = (int32_t)v; }
		}
		next[b] = best_i;
	}
}
