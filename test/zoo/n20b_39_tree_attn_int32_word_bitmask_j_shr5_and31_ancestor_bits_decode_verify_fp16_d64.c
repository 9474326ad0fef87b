/* Speculative-decoding tree verification (Medusa / EAGLE style): each draft token's ancestors
 * are a bitmask packed in int32 words, tree_mask[b][i][j >> 5] >> (j & 31) & 1, as a C++ port
 * of the tree buffers keeps them (torch.int32 words, so bit 31 makes a word negative); the
 * prefix (KV cache) is fully visible, the draft part only through the ancestor bits. */
#include <math.h>
#include <stdint.h>

void tree_verify_attn(int B, int H, int P, int T, int W, float scale,
		const _Float16 q[B][H][T][64], const _Float16 k[B][H][P + T][64], const _Float16 v[B][H][P + T][64],
		const int32_t tree_mask[B][T][W], _Float16 o[B][H][T][64])
{
#pragma fuse kernel(tree_verify_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < T; i++) {
				float m = -INFINITY, l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int j = 0; j < P + T; j++) {
					if (j >= P && j - P != i && !((tree_mask[b][i][(j - P) >> 5] >> ((j - P) & 31)) & 1)) continue;
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= scale;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
