/* vLLM's ref_single_query_cached_kv_attention (tests/kernels/test_attention.py) ported to C by
 * someone reading it line by line: block_tables int32 [num_seqs][max_num_blocks_per_seq], the
 * flash layout key_cache[num_blocks][block_size][num_kv_heads][head_size], run-time block_size,
 * seq_lens int32, num_queries_per_kv = num_query_heads / num_kv_heads, logits materialised. */
#include <math.h>
#include <stdint.h>

#define HEAD_SIZE 128

void ref_single_query_cached_kv_attention(int num_seqs, int num_query_heads, int num_kv_heads,
		int num_blocks, int block_size, int max_num_blocks_per_seq, int max_seq_len, float scale,
		const _Float16 query[num_seqs][num_query_heads][HEAD_SIZE],
		const _Float16 key_cache[num_blocks][block_size][num_kv_heads][HEAD_SIZE],
		const _Float16 value_cache[num_blocks][block_size][num_kv_heads][HEAD_SIZE],
		const int32_t block_tables[num_seqs][max_num_blocks_per_seq],
		const int32_t seq_lens[num_seqs],
		_Float16 output[num_seqs][num_query_heads][HEAD_SIZE])
{
	const int num_queries_per_kv = num_query_heads / num_kv_heads;
#pragma fuse kernel(paged_ref) parallel(i, h)
	for (int i = 0; i < num_seqs; i++) {
		for (int h = 0; h < num_query_heads; h++) {
			const int seq_len = seq_lens[i];
			const int kv_h = h / num_queries_per_kv;
			float attn[max_seq_len];
			float m = -INFINITY;
			for (int j = 0; j < seq_len; j++) {
				const int block_number = block_tables[i][j / block_size];
				const int block_offset = j % block_size;
				float s = 0.0f;
				for (int d = 0; d < HEAD_SIZE; d++)
					s += (float)query[i][h][d] * (float)key_cache[block_number][block_offset][kv_h][d];
				attn[j] = scale * s;
				if (attn[j] > m) m = attn[j];
			}
			float denom = 0.0f;
			for (int j = 0; j < seq_len; j++) {
				attn[j] = expf(attn[j] - m);
				denom += attn[j];
			}
			for (int d = 0; d < HEAD_SIZE; d++) {
				float acc = 0.0f;
				for (int j = 0; j < seq_len; j++) {
					const int block_number = block_tables[i][j / block_size];
					acc += attn[j] / denom * (float)value_cache[block_number][j % block_size][kv_h][d];
				}
				output[i][h][d] = (_Float16)acc;
			}
		}
	}
}
