/* vLLM prefix-caching prefill (context_attention_fwd reference): each sequence has ctx_len[b] cached
 * tokens in paged blocks plus NQ new tokens also written into the cache; query i is at position
 * ctx_len[b] + i and reads keys 0..ctx_len[b] + i through the block table. Run-time block size. */
#include <math.h>
#include <stdint.h>

void prefix_prefill(int B, int H, int NQ, int BS, int MAXB, int NBLK, const int32_t ctx_len[B],
		    const int32_t block_table[B][MAXB], const _Float16 q[B][NQ][H][128],
		    const _Float16 k_cache[NBLK][BS][H][128], const _Float16 v_cache[NBLK][BS][H][128],
		    _Float16 o[B][NQ][H][128])
{
#pragma fuse kernel(prefix_prefill) parallel(b, i, h)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < NQ; i++)
			for (int h = 0; h < H; h++) {
				const int qpos = ctx_len[b] + i;
				float m = -INFINITY, l = 0.0f, acc[128] = {0};
				for (int j = 0; j <= qpos; j++) {
					const int blk = block_table[b][j / BS];
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][i][h][d] * (float)k_cache[blk][j % BS][h][d];
					s *= 0.08838834764831845f;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * (float)v_cache[blk][j % BS][h][d];
					m = mn;
				}
				for (int d = 0; d < 128; d++) o[b][i][h][d] = (_Float16)(acc[d] / l);
			}
}
