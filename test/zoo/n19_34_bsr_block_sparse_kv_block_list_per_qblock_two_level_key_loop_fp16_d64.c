/* Block-sparse attention with a BSR layout (FlashInfer / xformers BlockSparse style): for query block i / BS,
 * kv_block_cnt[h][qb] key blocks listed in kv_block_idx[h][qb][..]; the key loop is two-level (block, offset). */
#include <math.h>
#include <stdint.h>
void bsr_attn(int B, int H, int N, int BS, int NB, const int32_t kv_block_cnt[H][NB], const int32_t kv_block_idx[H][NB][NB],
	      const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64], const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(bsr_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int qb = i / BS;
				float m = -INFINITY, l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int kb = 0; kb < kv_block_cnt[h][qb]; kb++) {
					const int blk = kv_block_idx[h][qb][kb];
					for (int jj = 0; jj < BS; jj++) {
						const int j = blk * BS + jj;
						float s = 0.0f;
						for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
						s *= 0.125f;
						const float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
						l = l * c + p;
						for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
						m = mn;
					}
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
