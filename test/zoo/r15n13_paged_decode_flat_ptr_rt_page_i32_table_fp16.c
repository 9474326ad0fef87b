/* vLLM v1-like paged decode written against raw pointers: cache [num_blocks][PAGE][KVH][D]
 * read as kc[((blk * PAGE + off) * KVH + kvh) * 128 + d], run-time page size, int32 block table
 * [B][MAXB], GQA by h / (H / KVH). */
#include <math.h>
#include <stdint.h>

void paged_decode_flat(int B, int H, int KVH, int PAGE, int MAXB, int NB, float scale,
		       const int32_t *block_tables, const int32_t *seq_lens, const _Float16 *q,
		       const _Float16 kc[NB * PAGE * KVH * 128], const _Float16 vc[NB * PAGE * KVH * 128],
		       _Float16 *out)
{
#pragma fuse kernel(paged_decode_flat) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int kvh = h / (H / KVH);
			const _Float16 *qh = q + (b * H + h) * 128;
			float logits[MAXB * PAGE];
			float mx = -INFINITY;
			for (int t = 0; t < seq_lens[b]; t++) {
				const int blk = block_tables[b * MAXB + t / PAGE];
				const int off = t % PAGE;
				float dot = 0.0f;
				for (int d = 0; d < 128; d++)
					dot += (float)qh[d] * (float)kc[((blk * PAGE + off) * KVH + kvh) * 128 + d];
				logits[t] = dot * scale;
				mx = fmaxf(mx, logits[t]);
			}
			float sum = 0.0f;
			for (int t = 0; t < seq_lens[b]; t++) {
				logits[t] = expf(logits[t] - mx);
				sum += logits[t];
			}
			for (int d = 0; d < 128; d++) {
				float acc = 0.0f;
				for (int t = 0; t < seq_lens[b]; t++) {
					const int blk = block_tables[b * MAXB + t / PAGE];
					acc += logits[t] * (float)vc[((blk * PAGE + t % PAGE) * KVH + kvh) * 128 + d];
				}
				out[(b * H + h) * 128 + d] = (_Float16)(acc / sum);
			}
		}
}
