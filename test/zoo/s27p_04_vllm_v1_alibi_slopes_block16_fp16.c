/* vLLM paged_attention_v1 with ALiBi (BLOOM, MPT served by vLLM): the kernel adds
 * alibi_slope * (token_idx - seq_len + 1) to each logit, the slopes a per-head array;
 * the kernel's cache layout (key_cache [..][head_size / x][block_size][x], x = 8,
 * value_cache [..][head_size][block_size]), BLOCK_SIZE 16, one KV head per query head,
 * block_tables flat int32. fp16. */
#include <math.h>
#include <stdint.h>
#include <float.h>

#define BLOCK_SIZE 16
#define HEAD_SIZE 128
#define X 8

void paged_attention_v1_alibi(int num_seqs, int num_heads, int num_blocks, int max_num_blocks_per_seq, int max_seq_len,
		float scale, const float alibi_slopes[num_heads], const _Float16 q[num_seqs][num_heads][HEAD_SIZE],
		const _Float16 k_cache[num_blocks][num_heads][HEAD_SIZE / X][BLOCK_SIZE][X],
		const _Float16 v_cache[num_blocks][num_heads][HEAD_SIZE][BLOCK_SIZE],
		const int32_t block_tables[num_seqs * max_num_blocks_per_seq], const int32_t seq_lens[num_seqs],
		_Float16 out[num_seqs][num_heads][HEAD_SIZE])
{
#pragma fuse kernel(paged_attention_v1_alibi) parallel(seq_idx, head_idx)
	for (int seq_idx = 0; seq_idx < num_seqs; seq_idx++)
		for (int head_idx = 0; head_idx < num_heads; head_idx++) {
			const int seq_len = seq_lens[seq_idx];
			const float alibi_slope = alibi_slopes[head_idx];
			float logits[max_seq_len];
			float qk_max = -FLT_MAX;
			for (int token_idx = 0; token_idx < seq_len; token_idx++) {
				const int physical_block_number = block_tables[seq_idx * max_num_blocks_per_seq + token_idx / BLOCK_SIZE];
				float qk = 0.0f;
				for (int i = 0; i < HEAD_SIZE; i++)
					qk += (float)q[seq_idx][head_idx][i] * (float)k_cache[physical_block_number][head_idx][i / X][token_idx % BLOCK_SIZE][i % X];
				qk = scale * qk + alibi_slope * (float)(token_idx - seq_len + 1);
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
				float accs = 0.0f;
				for (int token_idx = 0; token_idx < seq_len; token_idx++) {
					const int physical_block_number = block_tables[seq_idx * max_num_blocks_per_seq + token_idx / BLOCK_SIZE];
					accs += logits[token_idx] * inv_sum * (float)v_cache[physical_block_number][head_idx][i][token_idx % BLOCK_SIZE];
				}
				out[seq_idx][head_idx][i] = (_Float16)accs;
			}
		}
}
