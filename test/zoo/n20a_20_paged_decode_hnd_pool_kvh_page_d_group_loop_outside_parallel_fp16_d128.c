/* A paged decode over FlashInfer's HND page layout: k_pool[num_pages][KVH][PAGE][128], page size PAGE a
 * run-time int, block_table int32; GQA by an inner group loop over the G query heads of a KV head, NOT named
 * in parallel(b, kvh): each g has its own max/sum/accumulator. */
#include <math.h>
#include <stdint.h>
void paged_decode(int B, int KVH, int G, int PAGE, int MAXP, int NP, const _Float16 q[B][KVH * G][128],
		  const _Float16 k_pool[NP][KVH][PAGE][128], const _Float16 v_pool[NP][KVH][PAGE][128],
		  const int32_t block_table[B][MAXP], const int32_t seq_lens[B], _Float16 out[B][KVH * G][128])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(paged_decode) parallel(b, kvh)
	for (int b = 0; b < B; b++)
		for (int kvh = 0; kvh < KVH; kvh++)
			for (int g = 0; g < G; g++) {
				const int h = kvh * G + g;
				float m = -INFINITY;
				float logits[MAXP * PAGE];
				for (int j = 0; j < seq_lens[b]; j++) {
					const int pg = block_table[b][j / PAGE];
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][h][d] * (float)k_pool[pg][kvh][j % PAGE][d];
					logits[j] = s * scale;
					m = fmaxf(m, logits[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < seq_lens[b]; j++) { logits[j] = expf(logits[j] - m); l += logits[j]; }
				for (int d = 0; d < 128; d++) {
					float acc = 0.0f;
					for (int j = 0; j < seq_lens[b]; j++) acc += logits[j] * (float)v_pool[block_table[b][j / PAGE]][kvh][j % PAGE][d];
					out[b][h][d] = (_Float16)(acc / l);
				}
			}
}
