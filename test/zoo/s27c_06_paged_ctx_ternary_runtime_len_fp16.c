/* Prefix prefill with a paged cache written as one loop: sequence b's first ctx_len[b]
 * keys come from the cache pages (block table, run-time block size BS), the rest from the
 * new chunk; the source is picked by comparing the key index with ctx_len[b], read at run
 * time. fp16, D = 128, one KV head per query head. */
#include <math.h>
#include <stdint.h>

void paged_prefix_one_loop(int B, int H, int NQ, int BS, int MAXB, int NBLK, const int32_t block_table[B][MAXB],
			   const int32_t ctx_len[B], const _Float16 q[B][H][NQ][128], const _Float16 k_new[B][H][NQ][128],
			   const _Float16 v_new[B][H][NQ][128], const _Float16 k_cache[NBLK][H][BS][128],
			   const _Float16 v_cache[NBLK][H][BS][128], _Float16 o[B][H][NQ][128])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(paged_prefix_one_loop) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < NQ; i++) {
				const int n = ctx_len[b] + i + 1;
				float m = -INFINITY, l = 0.0f, acc[128];
				for (int d = 0; d < 128; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < n; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) {
						const float kd = j < ctx_len[b] ? (float)k_cache[block_table[b][j / BS]][h][j % BS][d]
									       : (float)k_new[b][h][j - ctx_len[b]][d];
						s += (float)q[b][h][i][d] * kd;
					}
					m = fmaxf(m, s * scale);
				}
				for (int j = 0; j < n; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) {
						const float kd = j < ctx_len[b] ? (float)k_cache[block_table[b][j / BS]][h][j % BS][d]
									       : (float)k_new[b][h][j - ctx_len[b]][d];
						s += (float)q[b][h][i][d] * kd;
					}
					const float p = expf(s * scale - m);
					l += p;
					for (int d = 0; d < 128; d++)
						acc[d] += p * (j < ctx_len[b] ? (float)v_cache[block_table[b][j / BS]][h][j % BS][d]
									  : (float)v_new[b][h][j - ctx_len[b]][d]);
				}
				for (int d = 0; d < 128; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
