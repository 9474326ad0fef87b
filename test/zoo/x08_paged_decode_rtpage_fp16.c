/* Paged decode as vLLM's kernel takes it: the page size is an argument (block_size), the
 * cache a pool of pages k_cache[num_blocks][block_size][H][D], and each sequence has its
 * own length in seq_lens[b] and its pages in block_tables[b][...]. Style: helper locals for
 * the page and the slot, the score in one loop and recomputed in the P.V loop (no s[]),
 * fp16 storage, #define HEAD_DIM 128, splitk(j) with no tile clause. */
#include <math.h>

#define HEAD_DIM 128

void paged_attention(int num_seqs, int num_heads, int num_blocks, int max_blocks, int block_size, float scale,
		     const _Float16 query[num_seqs][num_heads][HEAD_DIM],
		     const _Float16 k_cache[num_blocks][block_size][num_heads][HEAD_DIM],
		     const _Float16 v_cache[num_blocks][block_size][num_heads][HEAD_DIM],
		     const int block_tables[num_seqs][max_blocks], const int seq_lens[num_seqs],
		     _Float16 out[num_seqs][num_heads][HEAD_DIM])
{
#pragma fuse kernel(paged_attention) parallel(s, h) splitk(t)
	for (int s = 0; s < num_seqs; s++)
		for (int h = 0; h < num_heads; h++) {
			float qk_max = -INFINITY;
			for (int t = 0; t < seq_lens[s]; t++) {
				const int blk = block_tables[s][t / block_size];
				const int off = t % block_size;
				float qk = 0.0f;
				for (int d = 0; d < HEAD_DIM; d++)
					qk += (float)query[s][h][d] * (float)k_cache[blk][off][h][d];
				qk_max = fmaxf(qk_max, qk * scale);
			}
			float exp_sum = 0.0f;
			float acc[HEAD_DIM];
			for (int d = 0; d < HEAD_DIM; d++)
				acc[d] = 0.0f;
			for (int t = 0; t < seq_lens[s]; t++) {
				const int blk = block_tables[s][t / block_size];
				const int off = t % block_size;
				float qk = 0.0f;
				for (int d = 0; d < HEAD_DIM; d++)
					qk += (float)query[s][h][d] * (float)k_cache[blk][off][h][d];
				float p = expf(qk * scale - qk_max);
				exp_sum += p;
				for (int d = 0; d < HEAD_DIM; d++)
					acc[d] += p * (float)v_cache[blk][off][h][d];
			}
			for (int d = 0; d < HEAD_DIM; d++)
				out[s][h][d] = (_Float16)(acc[d] / exp_sum);
		}
}
