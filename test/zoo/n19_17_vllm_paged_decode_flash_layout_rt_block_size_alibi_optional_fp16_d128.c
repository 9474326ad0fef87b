/* vLLM tests' ref_single_query_cached_kv_attention with the flash layout cache [num_blocks][block_size][kv_heads][D]:
 * block_number = block_tables[b][j / block_size], block_offset = j % block_size, run-time block_size,
 * optional ALiBi (use_alibi flag): bias = slope[h] * (j - seq_len + 1). */
#include <math.h>
#include <stdint.h>
void ref_paged_decode(int num_seqs, int num_heads, int num_kv_heads, int block_size, int max_blocks, int num_blocks, int use_alibi,
		      const int32_t block_tables[num_seqs][max_blocks], const int32_t seq_lens[num_seqs], const float alibi_slopes[num_heads],
		      const _Float16 query[num_seqs][num_heads][128], const _Float16 key_cache[num_blocks][block_size][num_kv_heads][128],
		      const _Float16 value_cache[num_blocks][block_size][num_kv_heads][128], _Float16 output[num_seqs][num_heads][128])
{
	const float scale = 1.0f / sqrtf(128.0f);
	const int num_queries_per_kv = num_heads / num_kv_heads;
#pragma fuse kernel(ref_paged_decode) parallel(i, h) splitk(j)
	for (int i = 0; i < num_seqs; i++)
		for (int h = 0; h < num_heads; h++) {
			const int seq_len = seq_lens[i];
			const int kvh = h / num_queries_per_kv;
			float attn[seq_len];
			float m = -INFINITY;
			for (int j = 0; j < seq_len; j++) {
				const int block_number = block_tables[i][j / block_size];
				const int block_offset = j % block_size;
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)query[i][h][d] * (float)key_cache[block_number][block_offset][kvh][d];
				s *= scale;
				if (use_alibi) s += alibi_slopes[h] * (float)(j - seq_len + 1);
				attn[j] = s;
				m = fmaxf(m, s);
			}
			float l = 0.0f;
			for (int j = 0; j < seq_len; j++) { attn[j] = expf(attn[j] - m); l += attn[j]; }
			for (int d = 0; d < 128; d++) {
				float acc = 0.0f;
				for (int j = 0; j < seq_len; j++) {
					const int block_number = block_tables[i][j / block_size];
					acc += attn[j] * (float)value_cache[block_number][j % block_size][kvh][d];
				}
				output[i][h][d] = (_Float16)(acc / l);
			}
		}
}
