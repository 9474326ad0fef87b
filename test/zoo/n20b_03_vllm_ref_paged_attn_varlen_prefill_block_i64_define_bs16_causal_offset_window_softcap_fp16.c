/* vLLM's ref_paged_attn (tests/kernels/attention/test_flash_attn.py): per sequence, query_len from
 * cu_query_lens (int32), kv_len from kv_lens, keys gathered from the paged cache through int64
 * block_tables, the mask torch.triu(ones, diagonal=kv_len - query_len + 1) plus an optional
 * sliding window, soft_cap applied before the mask; BLOCK_SIZE a #define as in a test. */
#include <math.h>
#include <stdint.h>

#define BLOCK_SIZE 16
#define HD 64

void ref_paged_attn(int num_seqs, int total_q, int num_query_heads, int num_kv_heads, int num_blocks,
		int max_blocks, int sliding_window, float scale, float soft_cap,
		const _Float16 query[total_q][num_query_heads][HD],
		const _Float16 key_cache[num_blocks][BLOCK_SIZE][num_kv_heads][HD],
		const _Float16 value_cache[num_blocks][BLOCK_SIZE][num_kv_heads][HD],
		const int32_t cu_query_lens[num_seqs + 1], const int32_t kv_lens[num_seqs],
		const int64_t block_tables[num_seqs][max_blocks],
		_Float16 out[total_q][num_query_heads][HD])
{
	const int G = num_query_heads / num_kv_heads;
#pragma fuse kernel(ref_paged_attn) parallel(s, h, qi)
	for (int s = 0; s < num_seqs; s++)
		for (int h = 0; h < num_query_heads; h++)
			for (int qi = 0; qi < cu_query_lens[s + 1] - cu_query_lens[s]; qi++) {
				const int query_len = cu_query_lens[s + 1] - cu_query_lens[s];
				const int kv_len = kv_lens[s];
				const int row = cu_query_lens[s] + qi;
				const int diag = kv_len - query_len + qi;   /* last key this query may see */
				float m = -INFINITY, l = 0.0f, acc[HD];
				for (int d = 0; d < HD; d++) acc[d] = 0.0f;
				for (int k = 0; k < kv_len; k++) {
					const int64_t blk = block_tables[s][k / BLOCK_SIZE];
					float dot = 0.0f;
					for (int d = 0; d < HD; d++)
						dot += (float)query[row][h][d] * (float)key_cache[blk][k % BLOCK_SIZE][h / G][d];
					float w = dot * scale;
					w = soft_cap * tanhf(w / soft_cap);
					if (k > diag || k <= diag - sliding_window) w = -INFINITY;
					if (w == -INFINITY) continue;
					float mn = fmaxf(m, w);
					float c = expf(m - mn), p = expf(w - mn);
					l = l * c + p;
					for (int d = 0; d < HD; d++)
						acc[d] = acc[d] * c + p * (float)value_cache[blk][k % BLOCK_SIZE][h / G][d];
					m = mn;
				}
				for (int d = 0; d < HD; d++) out[row][h][d] = (_Float16)(acc[d] / l);
			}
}
