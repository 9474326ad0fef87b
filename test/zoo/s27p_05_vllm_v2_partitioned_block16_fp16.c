/* vLLM paged_attention_v2 ported to C: the sequence is cut into partitions of
 * PARTITION_SIZE tokens; each partition's logits give a max_logits and an exp_sums entry
 * and a tmp_out row normalised by its own sum, and the reduce kernel rescales the
 * partitions' rows by exp(max_logit - global max) * exp_sum and divides by the global
 * sum. The kernel's cache layout (key_cache [..][head_size / x][block_size][x], x = 8;
 * value_cache [..][head_size][block_size]), BLOCK_SIZE 16, GQA. The partitions' scratch
 * are the caller's arrays, as in vLLM. fp16. */
#include <math.h>
#include <stdint.h>
#include <float.h>

#define BLOCK_SIZE 16
#define HEAD_SIZE 128
#define X 8
#define PARTITION_SIZE 512

void paged_attention_v2_cpu(int num_seqs, int num_heads, int num_kv_heads, int num_blocks, int max_num_blocks_per_seq,
		int max_num_partitions, float scale, const _Float16 q[num_seqs][num_heads][HEAD_SIZE],
		const _Float16 k_cache[num_blocks][num_kv_heads][HEAD_SIZE / X][BLOCK_SIZE][X],
		const _Float16 v_cache[num_blocks][num_kv_heads][HEAD_SIZE][BLOCK_SIZE],
		const int32_t block_tables[num_seqs][max_num_blocks_per_seq], const int32_t seq_lens[num_seqs],
		float exp_sums[num_seqs][num_heads][max_num_partitions], float max_logits[num_seqs][num_heads][max_num_partitions],
		float tmp_out[num_seqs][num_heads][max_num_partitions][HEAD_SIZE], _Float16 out[num_seqs][num_heads][HEAD_SIZE])
{
	const int num_queries_per_kv = num_heads / num_kv_heads;
#pragma fuse kernel(paged_attention_v2) parallel(seq_idx, head_idx)
	for (int seq_idx = 0; seq_idx < num_seqs; seq_idx++)
		for (int head_idx = 0; head_idx < num_heads; head_idx++) {
			const int kv_head_idx = head_idx / num_queries_per_kv;
			const int seq_len = seq_lens[seq_idx];
			const int num_partitions = (seq_len + PARTITION_SIZE - 1) / PARTITION_SIZE;
			for (int partition_idx = 0; partition_idx < num_partitions; partition_idx++) {
				const int start_token_idx = partition_idx * PARTITION_SIZE;
				const int end_token_idx = start_token_idx + PARTITION_SIZE < seq_len ? start_token_idx + PARTITION_SIZE : seq_len;
				float logits[PARTITION_SIZE];
				float qk_max = -FLT_MAX;
				for (int token_idx = start_token_idx; token_idx < end_token_idx; token_idx++) {
					const int physical_block_number = block_tables[seq_idx][token_idx / BLOCK_SIZE];
					float qk = 0.0f;
					for (int i = 0; i < HEAD_SIZE; i++)
						qk += (float)q[seq_idx][head_idx][i] * (float)k_cache[physical_block_number][kv_head_idx][i / X][token_idx % BLOCK_SIZE][i % X];
					qk *= scale;
					logits[token_idx - start_token_idx] = qk;
					qk_max = fmaxf(qk_max, qk);
				}
				float exp_sum = 0.0f;
				for (int token_idx = start_token_idx; token_idx < end_token_idx; token_idx++) {
					const float val = expf(logits[token_idx - start_token_idx] - qk_max);
					logits[token_idx - start_token_idx] = val;
					exp_sum += val;
				}
				const float inv_sum = 1.0f / (exp_sum + 1e-6f);
				max_logits[seq_idx][head_idx][partition_idx] = qk_max;
				exp_sums[seq_idx][head_idx][partition_idx] = exp_sum;
				for (int i = 0; i < HEAD_SIZE; i++) {
					float acc = 0.0f;
					for (int token_idx = start_token_idx; token_idx < end_token_idx; token_idx++) {
						const int physical_block_number = block_tables[seq_idx][token_idx / BLOCK_SIZE];
						acc += logits[token_idx - start_token_idx] * inv_sum * (float)v_cache[physical_block_number][kv_head_idx][i][token_idx % BLOCK_SIZE];
					}
					tmp_out[seq_idx][head_idx][partition_idx][i] = acc;
				}
			}
			/* paged_attention_v2_reduce_kernel */
			float max_logit = -FLT_MAX;
			for (int p = 0; p < num_partitions; p++)
				max_logit = fmaxf(max_logit, max_logits[seq_idx][head_idx][p]);
			float global_exp_sum = 0.0f;
			for (int p = 0; p < num_partitions; p++)
				global_exp_sum += exp_sums[seq_idx][head_idx][p] * expf(max_logits[seq_idx][head_idx][p] - max_logit);
			const float inv_global_exp_sum = 1.0f / (global_exp_sum + 1e-6f);
			for (int i = 0; i < HEAD_SIZE; i++) {
				float acc = 0.0f;
				for (int p = 0; p < num_partitions; p++)
					acc += tmp_out[seq_idx][head_idx][p][i] * exp_sums[seq_idx][head_idx][p] * expf(max_logits[seq_idx][head_idx][p] - max_logit) * inv_global_exp_sum;
				out[seq_idx][head_idx][i] = (_Float16)acc;
			}
		}
}
