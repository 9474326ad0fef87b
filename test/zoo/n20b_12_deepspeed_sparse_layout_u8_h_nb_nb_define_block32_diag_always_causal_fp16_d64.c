/* DeepSpeed SparseSelfAttention semantics: layout[H][NB][NB] (uint8, 1 = attend the key block),
 * block 32, causal inside the diagonal block, the diagonal block always attended (as the
 * Fixed / BigBird configs set it); written as a dense reference that skips pruned blocks. */
#include <math.h>
#include <stdint.h>

#define BLOCK 32
#define HD 64

void sparse_self_attention(int B, int H, int NB, float scale, const _Float16 q[B][H][NB * BLOCK][HD],
		const _Float16 k[B][H][NB * BLOCK][HD], const _Float16 v[B][H][NB * BLOCK][HD],
		const uint8_t layout[H][NB][NB], _Float16 out[B][H][NB * BLOCK][HD])
{
#pragma fuse kernel(sparse_self_attention) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < NB * BLOCK; i++) {
				const int qb = i / BLOCK;
				float mx = -INFINITY, l = 0.0f, acc[HD];
				for (int d = 0; d < HD; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					const int kb = j / BLOCK;
					if (kb != qb && layout[h][qb][kb] == 0) continue;
					float s = 0.0f;
					for (int d = 0; d < HD; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= scale;
					float mn = fmaxf(mx, s), al = expf(mx - mn), p = expf(s - mn);
					l = l * al + p;
					for (int d = 0; d < HD; d++) acc[d] = acc[d] * al + p * (float)v[b][h][j][d];
					mx = mn;
				}
				for (int d = 0; d < HD; d++) out[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
