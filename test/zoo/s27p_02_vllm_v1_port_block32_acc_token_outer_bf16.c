/* vLLM paged_attention_v1 ported to C for a bf16 model served with --block-size 32: the
 * kernel's cache layout (key_cache[num_blocks][num_kv_heads][head_size / x][block_size][x],
 * x = 8 for 2-byte types; value_cache[num_blocks][num_kv_heads][head_size][block_size]),
 * block_tables a flat int32 array with a row stride, the block number widened to int64 as
 * the kernel does; the V pass token-outer into an accumulator row (the kernel's accs[]), the
 * normalisation at the store. GQA. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

#define BLOCK_SIZE 32
#define HEAD_SIZE 128
#define X 8

void paged_attention_v1_bs32(int num_seqs, int num_heads, int num_kv_heads, int num_blocks, int max_num_blocks_per_seq,
		int max_seq_len, float scale, const fusecc_bf16 q[num_seqs][num_heads][HEAD_SIZE],
		const fusecc_bf16 k_cache[num_blocks][num_kv_heads][HEAD_SIZE / X][BLOCK_SIZE][X],
		const fusecc_bf16 v_cache[num_blocks][num_kv_heads][HEAD_SIZE][BLOCK_SIZE],
		const int32_t block_tables[num_seqs * max_num_blocks_per_seq], const int32_t seq_lens[num_seqs],
		fusecc_bf16 out[num_seqs][num_heads][HEAD_SIZE])
{
	const int num_queries_per_kv = num_heads / num_kv_heads;
#pragma fuse kernel(paged_attention_v1_bs32) parallel(seq_idx, head_idx)
	for (int seq_idx = 0; seq_idx < num_seqs; seq_idx++)
		for (int head_idx = 0; head_idx < num_heads; head_idx++) {
			const int kv_head_idx = head_idx / num_queries_per_kv;
			const int seq_len = seq_lens[seq_idx];
			const int32_t *block_table = block_tables + seq_idx * max_num_blocks_per_seq;
			float logits[max_seq_len];
			float qk_max = -INFINITY;
			for (int token_idx = 0; token_idx < seq_len; token_idx++) {
				const int64_t physical_block_number = block_table[token_idx / BLOCK_SIZE];
				const int block_offset = token_idx % BLOCK_SIZE;
				float qk = 0.0f;
				for (int i = 0; i < HEAD_SIZE; i++)
					qk += fusecc_bf16_to_float(q[seq_idx][head_idx][i]) * fusecc_bf16_to_float(k_cache[physical_block_number][kv_head_idx][i / X][block_offset][i % X]);
				logits[token_idx] = qk * scale;
				qk_max = fmaxf(qk_max, logits[token_idx]);
			}
			float exp_sum = 0.0f;
			for (int token_idx = 0; token_idx < seq_len; token_idx++) {
				logits[token_idx] = expf(logits[token_idx] - qk_max);
				exp_sum += logits[token_idx];
			}
			float accs[HEAD_SIZE];
			for (int i = 0; i < HEAD_SIZE; i++)
				accs[i] = 0.0f;
			for (int token_idx = 0; token_idx < seq_len; token_idx++) {
				const int64_t physical_block_number = block_table[token_idx / BLOCK_SIZE];
				const int block_offset = token_idx % BLOCK_SIZE;
				for (int i = 0; i < HEAD_SIZE; i++)
					accs[i] += logits[token_idx] * fusecc_bf16_to_float(v_cache[physical_block_number][kv_head_idx][i][block_offset]);
			}
			for (int i = 0; i < HEAD_SIZE; i++)
				out[seq_idx][head_idx][i] = fusecc_float_to_bf16(accs[i] / (exp_sum + 1e-6f));
		}
}
