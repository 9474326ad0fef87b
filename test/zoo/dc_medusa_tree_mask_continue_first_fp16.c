/* dc_medusa_tree_mask_continue_first_fp16.c: tree (speculative) decoding attention, Medusa/EAGLE style: T draft tokens already
 * appended after the prefix of ctx_len[b] tokens in the cache kv[B][H][L][D]; draft token
 * i sees the whole prefix and the drafts its tree_mask[T][T] (uint8, 1 = ancestor or self)
 * allows. fp16, D = 128, one kernel row per (b, h, draft token). */
#include <math.h>
#include <stdint.h>

void tree_attn(int B, int H, int L, int T, float scale, const _Float16 q[B][H][T][128],
	       const _Float16 k[B][H][L][128], const _Float16 v[B][H][L][128],
	       const int32_t ctx_len[B], const uint8_t tree_mask[T][T], _Float16 o[B][H][T][128])
{
#pragma fuse kernel(tree_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < T; i++) {
				const int n = ctx_len[b] + T;
				float m = -INFINITY, l = 0.0f;
				float acc[128];
				for (int d = 0; d < 128; d++) acc[d] = 0.0f;
				for (int j = 0; j < n; j++) {
					if (j >= ctx_len[b] && !tree_mask[i][j - ctx_len[b]]) continue;
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= scale;
					if (s > m) {
						float r = expf(m - s);
						l *= r;
						for (int d = 0; d < 128; d++) acc[d] *= r;
						m = s;
					}
					float p = expf(s - m);
					l += p;
					for (int d = 0; d < 128; d++)
						acc[d] += p * (float)v[b][h][j][d];
				}
				for (int d = 0; d < 128; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
