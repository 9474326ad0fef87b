/* vLLM's context_attention_fwd (the Triton prefix-prefill kernel, prefix_prefill.py) ported
 * to C by hand: sequence b has ctx_len[b] tokens already in the paged cache (block table,
 * block size BS) and its new tokens packed at start_loc[b] .. start_loc[b + 1] - 1 (the
 * kernel's B_Start_Loc, B + 1 entries); each new
 * query attends to the whole context, then causally to the new tokens. Like the kernel, one
 * online softmax (m, l, acc) runs through two loops: the cache's, then the new keys'.
 * fp16, D = 128, GQA (KVH heads of G query heads each). */
#include <math.h>
#include <stdint.h>

void context_attention_fwd(int B, int NTOK, int H, int KVH, int BS, int MAXB, int NBLK, float sm_scale,
			   const int32_t start_loc[B + 1], const int32_t ctx_len[B],
			   const int32_t block_table[B][MAXB], const _Float16 q[NTOK][H][128],
			   const _Float16 k[NTOK][KVH][128], const _Float16 v[NTOK][KVH][128],
			   const _Float16 k_cache[NBLK][BS][KVH][128], const _Float16 v_cache[NBLK][BS][KVH][128],
			   _Float16 o[NTOK][H][128])
{
#pragma fuse kernel(context_attention_fwd) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < start_loc[b + 1] - start_loc[b]; i++) {
				const int kvh = h / (H / KVH);
				const int qrow = start_loc[b] + i;
				float m_i = -INFINITY, l_i = 0.0f, acc[128];
				for (int d = 0; d < 128; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < ctx_len[b]; j++) {
					const int blk = block_table[b][j / BS];
					float qk = 0.0f;
					for (int d = 0; d < 128; d++)
						qk += (float)q[qrow][h][d] * (float)k_cache[blk][j % BS][kvh][d];
					qk *= sm_scale;
					const float m_ij = fmaxf(m_i, qk);
					const float alpha = expf(m_i - m_ij);
					const float p = expf(qk - m_ij);
					l_i = l_i * alpha + p;
					for (int d = 0; d < 128; d++)
						acc[d] = acc[d] * alpha + p * (float)v_cache[blk][j % BS][kvh][d];
					m_i = m_ij;
				}
				for (int j = 0; j < i + 1; j++) {
					float qk = 0.0f;
					for (int d = 0; d < 128; d++)
						qk += (float)q[qrow][h][d] * (float)k[start_loc[b] + j][kvh][d];
					qk *= sm_scale;
					const float m_ij = fmaxf(m_i, qk);
					const float alpha = expf(m_i - m_ij);
					const float p = expf(qk - m_ij);
					l_i = l_i * alpha + p;
					for (int d = 0; d < 128; d++)
						acc[d] = acc[d] * alpha + p * (float)v[start_loc[b] + j][kvh][d];
					m_i = m_ij;
				}
				for (int d = 0; d < 128; d++)
					o[qrow][h][d] = (_Float16)(acc[d] / l_i);
			}
}
