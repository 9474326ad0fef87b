/* A C port of vLLM's paged_attention_v1 kernel (csrc/attention/attention_kernels.cuh) as a
 * person writes it to check the CUDA kernel on the CPU: the caches in the kernel's own
 * layout, key_cache[num_blocks][num_kv_heads][head_size / x][block_size][x] with x = 16 /
 * sizeof(scalar_t) = 8 and value_cache[num_blocks][num_kv_heads][head_size][block_size];
 * BLOCK_SIZE 16 and HEAD_SIZE 128 template constants; GQA through num_queries_per_kv;
 * the logits in a buffer (the kernel's shared memory), qk_max, exp_sum, then the V pass
 * per output element with the block number looked up per token. fp16. */
#include <math.h>
#include <stdint.h>
#include <float.h>

#define BLOCK_SIZE 16
#define HEAD_SIZE 128
#define X 8 /* 16 / sizeof(scalar_t) */

void paged_attention_v1_cpu(int num_seqs, int num_heads, int num_kv_heads, int num_blocks, int max_num_blocks_per_seq,
		int max_seq_len, float scale, _Float16 out[num_seqs][num_heads][HEAD_SIZE],
		const _Float16 q[num_seqs][num_heads][HEAD_SIZE],
		const _Float16 k_cache[num_blocks][num_kv_heads][HEAD_SIZE / X][BLOCK_SIZE][X],
		const _Float16 v_cache[num_blocks][num_kv_heads][HEAD_SIZE][BLOCK_SIZE],
		const int block_tables[num_seqs][max_num_blocks_per_seq], const int seq_lens[num_seqs])
{
	const int num_queries_per_kv = num_heads / num_kv_heads;
#pragma fuse kernel(paged_attention_v1) parallel(seq_idx, head_idx)
	for (int seq_idx = 0; seq_idx < num_seqs; seq_idx++) {
		for (int head_idx = 0; head_idx < num_heads; head_idx++) {
			const int kv_head_idx = head_idx / num_queries_per_kv;
			const int seq_len = seq_lens[seq_idx];
			float logits[max_seq_len];
			float qk_max = -FLT_MAX;
			for (int token_idx = 0; token_idx < seq_len; token_idx++) {
				const int physical_block_number = block_tables[seq_idx][token_idx / BLOCK_SIZE];
				const int block_offset = token_idx % BLOCK_SIZE;
				float qk = 0.0f;
				for (int i = 0; i < HEAD_SIZE; i++)
					qk += (float)q[seq_idx][head_idx][i] * (float)k_cache[physical_block_number][kv_head_idx][i / X][block_offset][i % X];
				qk = scale * qk;
				logits[token_idx] = qk;
				qk_max = fmaxf(qk_max, qk);
			}
			float exp_sum = 0.0f;
			for (int token_idx = 0; token_idx < seq_len; token_idx++) {
				float val = expf(logits[token_idx] - qk_max);
				logits[token_idx] = val;
				exp_sum += val;
			}
			const float inv_sum = 1.0f / (exp_sum + 1e-6f);
			for (int i = 0; i < HEAD_SIZE; i++) {
				float acc = 0.0f;
				for (int token_idx = 0; token_idx < seq_len; token_idx++) {
					const int physical_block_number = block_tables[seq_idx][token_idx / BLOCK_SIZE];
					acc += logits[token_idx] * inv_sum * (float)v_cache[physical_block_number][kv_head_idx][i][token_idx % BLOCK_SIZE];
				}
				out[seq_idx][head_idx][i] = (_Float16)acc;
			}
		}
	}
}
