/* vLLM's paged attention with the block size a run-time argument (one binary for
 * --block-size 16 and 32), the kernel's cache layout: k_cache[num_blocks][num_kv_heads]
 * [HEAD_SIZE / X][block_size][X], X = 8, v_cache[num_blocks][num_kv_heads][HEAD_SIZE]
 * [block_size]; an online softmax written by hand (running max and rescale), one pass,
 * splitk asked for. GQA, fp16. */
#include <math.h>
#include <stdint.h>

#define HEAD_SIZE 128
#define X 8

void paged_attention_rt_bs(int num_seqs, int num_heads, int num_kv_heads, int num_blocks, int block_size,
		int max_num_blocks_per_seq, float scale, const _Float16 q[num_seqs][num_heads][HEAD_SIZE],
		const _Float16 k_cache[num_blocks][num_kv_heads][HEAD_SIZE / X][block_size][X],
		const _Float16 v_cache[num_blocks][num_kv_heads][HEAD_SIZE][block_size],
		const int block_tables[num_seqs][max_num_blocks_per_seq], const int context_lens[num_seqs],
		_Float16 out[num_seqs][num_heads][HEAD_SIZE])
{
	const int G = num_heads / num_kv_heads;
#pragma fuse kernel(paged_attention_rt_bs) parallel(s, h) splitk(t)
	for (int s = 0; s < num_seqs; s++)
		for (int h = 0; h < num_heads; h++) {
			float m = -INFINITY, l = 0.0f;
			float acc[HEAD_SIZE];
			for (int d = 0; d < HEAD_SIZE; d++)
				acc[d] = 0.0f;
			for (int t = 0; t < context_lens[s]; t++) {
				const int blk = block_tables[s][t / block_size];
				const int off = t % block_size;
				float qk = 0.0f;
				for (int d = 0; d < HEAD_SIZE; d++)
					qk += (float)q[s][h][d] * (float)k_cache[blk][h / G][d / X][off][d % X];
				qk *= scale;
				float m_new = fmaxf(m, qk);
				float alpha = expf(m - m_new);
				float p = expf(qk - m_new);
				l = l * alpha + p;
				for (int d = 0; d < HEAD_SIZE; d++)
					acc[d] = acc[d] * alpha + p * (float)v_cache[blk][h / G][d][off];
				m = m_new;
			}
			for (int d = 0; d < HEAD_SIZE; d++)
				out[s][h][d] = (_Float16)(l > 0.0f ? acc[d] / l : 0.0f);
		}
}
