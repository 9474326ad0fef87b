/* Speculative-decoding verification (EAGLE/Medusa style): T draft tokens arranged as a tree attend
 * to the whole cached prefix (cache_len[b] tokens) and to their tree ancestors given by
 * tree_mask[T][T] (uint8). Keys: cache [B][KVH][S][128] where the draft tokens were appended at
 * cache_len + t. GQA by h / G. */
#include <math.h>
#include <stdint.h>

void tree_verify(int B, int H, int KVH, int S, int T, const int32_t cache_len[B], const uint8_t tree_mask[T][T],
		 const _Float16 q[B][T][H][128], const _Float16 kc[B][KVH][S][128], const _Float16 vc[B][KVH][S][128],
		 _Float16 o[B][T][H][128])
{
	const int G = H / KVH;
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(tree_verify) parallel(b, t, h)
	for (int b = 0; b < B; b++)
		for (int t = 0; t < T; t++)
			for (int h = 0; h < H; h++) {
				const int L = cache_len[b];
				float m = -INFINITY, l = 0.0f, acc[128];
				for (int d = 0; d < 128; d++) acc[d] = 0.0f;
				for (int j = 0; j < L + T; j++) {
					if (j >= L && !tree_mask[t][j - L]) continue;
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][t][h][d] * (float)kc[b][h / G][j][d];
					s *= scale;
					float mn = fmaxf(m, s), a = expf(m - mn), p = expf(s - mn);
					l = l * a + p;
					for (int d = 0; d < 128; d++) acc[d] = acc[d] * a + p * (float)vc[b][h / G][j][d];
					m = mn;
				}
				for (int d = 0; d < 128; d++) o[b][t][h][d] = (_Float16)(acc[d] / l);
			}
}
