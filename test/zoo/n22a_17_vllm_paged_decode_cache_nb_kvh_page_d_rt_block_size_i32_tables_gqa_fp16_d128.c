/* vLLM-style paged decode (the reference in tests/kernels/attention): key/value caches as
 * [num_blocks][num_kv_heads][block_size][head_size] with run-time block_size, int32 block_tables
 * and seq_lens, GQA by h / (H / KVH). Materialised logits row as vLLM's ref_single_query_cached_kv_attention. */
#include <math.h>
#include <stdint.h>

void paged_attention_ref(int num_seqs, int H, int KVH, int block_size, int max_blocks, int num_blocks, int max_len,
			 float scale, const _Float16 query[num_seqs][H][128],
			 const _Float16 key_cache[num_blocks][KVH][block_size][128],
			 const _Float16 value_cache[num_blocks][KVH][block_size][128],
			 const int32_t block_tables[num_seqs][max_blocks], const int32_t seq_lens[num_seqs],
			 _Float16 out[num_seqs][H][128])
{
#pragma fuse kernel(paged_attention_ref) parallel(s, h)
	for (int s = 0; s < num_seqs; s++)
		for (int h = 0; h < H; h++) {
			const int kv_head = h / (H / KVH);
			const int ctx = seq_lens[s];
			float logits[max_len];
			float mx = -INFINITY;
			for (int t = 0; t < ctx; t++) {
				const int blk = block_tables[s][t / block_size];
				const int off = t % block_size;
				float dot = 0.0f;
				for (int d = 0; d < 128; d++)
					dot += (float)query[s][h][d] * (float)key_cache[blk][kv_head][off][d];
				logits[t] = dot * scale;
				mx = fmaxf(mx, logits[t]);
			}
			float sum = 0.0f;
			for (int t = 0; t < ctx; t++) {
				logits[t] = expf(logits[t] - mx);
				sum += logits[t];
			}
			for (int d = 0; d < 128; d++) {
				float acc = 0.0f;
				for (int t = 0; t < ctx; t++) {
					const int blk = block_tables[s][t / block_size];
					acc += logits[t] * (float)value_cache[blk][kv_head][t % block_size][d];
				}
				out[s][h][d] = (_Float16)(acc / sum);
			}
		}
}
