/* vLLM paged_attention_v1 for an fp32 model (dtype=float32): the kernel's layout with
 * x = 16 / sizeof(float) = 4, key_cache[num_blocks][num_kv_heads][head_size / 4]
 * [block_size][4], value_cache[num_blocks][num_kv_heads][head_size][block_size];
 * BLOCK_SIZE 16, head size 64, GQA, fp32 throughout. */
#include <math.h>
#include <stdint.h>
#include <float.h>

#define BLOCK_SIZE 16
#define HEAD_SIZE 64
#define X 4

void paged_attention_v1_f32(int num_seqs, int num_heads, int num_kv_heads, int num_blocks, int max_num_blocks_per_seq,
		int max_seq_len, float scale, const float q[num_seqs][num_heads][HEAD_SIZE],
		const float k_cache[num_blocks][num_kv_heads][HEAD_SIZE / X][BLOCK_SIZE][X],
		const float v_cache[num_blocks][num_kv_heads][HEAD_SIZE][BLOCK_SIZE],
		const int32_t block_tables[num_seqs][max_num_blocks_per_seq], const int32_t seq_lens[num_seqs],
		float out[num_seqs][num_heads][HEAD_SIZE])
{
	const int num_queries_per_kv = num_heads / num_kv_heads;
#pragma fuse kernel(paged_attention_v1_f32) parallel(seq_idx, head_idx)
	for (int seq_idx = 0; seq_idx < num_seqs; seq_idx++)
		for (int head_idx = 0; head_idx < num_heads; head_idx++) {
			const int kv_head_idx = head_idx / num_queries_per_kv;
			const int seq_len = seq_lens[seq_idx];
			float logits[max_seq_len];
			float qk_max = -FLT_MAX;
			for (int token_idx = 0; token_idx < seq_len; token_idx++) {
				const int physical_block_number = block_tables[seq_idx][token_idx / BLOCK_SIZE];
				float qk = 0.0f;
				for (int i = 0; i < HEAD_SIZE; i++)
					qk += q[seq_idx][head_idx][i] * k_cache[physical_block_number][kv_head_idx][i / X][token_idx % BLOCK_SIZE][i % X];
				qk *= scale;
				logits[token_idx] = qk;
				qk_max = fmaxf(qk_max, qk);
			}
			float exp_sum = 0.0f;
			for (int token_idx = 0; token_idx < seq_len; token_idx++) {
				const float val = expf(logits[token_idx] - qk_max);
				logits[token_idx] = val;
				exp_sum += val;
			}
			const float inv_sum = 1.0f / (exp_sum + 1e-6f);
			for (int i = 0; i < HEAD_SIZE; i++) {
				float acc = 0.0f;
				for (int token_idx = 0; token_idx < seq_len; token_idx++) {
					const int physical_block_number = block_tables[seq_idx][token_idx / BLOCK_SIZE];
					acc += logits[token_idx] * inv_sum * v_cache[physical_block_number][kv_head_idx][i][token_idx % BLOCK_SIZE];
				}
				out[seq_idx][head_idx][i] = acc;
			}
		}
}
