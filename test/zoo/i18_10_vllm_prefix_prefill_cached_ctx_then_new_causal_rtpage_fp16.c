/* vLLM's context_attention_fwd reference: each sequence has ctx_len[b] tokens already in the
 * paged cache (block table, run-time block size) and NQ new tokens in k_new / v_new; a new
 * query attends to the whole cached context and causally to the new tokens. Two key loops per
 * pass (cache, then new), softmax over their union. fp16, D = 128, GQA by h / G. */
#include <math.h>
#include <stdint.h>

void prefix_prefill(int B, int H, int G, int NQ, int BS, int MAXB, int NBLK, const int32_t block_table[B][MAXB], const int32_t ctx_len[B],
		    const _Float16 q[B][NQ][H][128], const _Float16 k_new[B][NQ][H / G][128], const _Float16 v_new[B][NQ][H / G][128],
		    const _Float16 k_cache[NBLK][BS][H / G][128], const _Float16 v_cache[NBLK][BS][H / G][128], _Float16 o[B][NQ][H][128])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(prefix_prefill) parallel(b, i, h)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < NQ; i++)
			for (int h = 0; h < H; h++) {
				const int kh = h / G;
				float m = -INFINITY;
				for (int j = 0; j < ctx_len[b]; j++) {
					const int blk = block_table[b][j / BS];
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][i][h][d] * (float)k_cache[blk][j % BS][kh][d];
					m = fmaxf(m, s * scale);
				}
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][i][h][d] * (float)k_new[b][j][kh][d];
					m = fmaxf(m, s * scale);
				}
				float l = 0.0f, acc[128] = {0};
				for (int j = 0; j < ctx_len[b]; j++) {
					const int blk = block_table[b][j / BS];
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][i][h][d] * (float)k_cache[blk][j % BS][kh][d];
					const float p = expf(s * scale - m);
					l += p;
					for (int d = 0; d < 128; d++) acc[d] += p * (float)v_cache[blk][j % BS][kh][d];
				}
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][i][h][d] * (float)k_new[b][j][kh][d];
					const float p = expf(s * scale - m);
					l += p;
					for (int d = 0; d < 128; d++) acc[d] += p * (float)v_new[b][j][kh][d];
				}
				for (int d = 0; d < 128; d++) o[b][i][h][d] = (_Float16)(acc[d] / l);
			}
}
