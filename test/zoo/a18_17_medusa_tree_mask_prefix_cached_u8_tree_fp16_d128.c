/* Medusa / speculative tree verification: T candidate tokens attend to the P cached prefix tokens
 * in full and to each other through a tree mask (tree_mask[i][t] = 1 when t is an ancestor of i or
 * i itself); keys are the cache of P + T entries. */
#include <math.h>
#include <stdint.h>

void tree_attn(int B, int H, int P, int T, const _Float16 q[B][H][T][128], const _Float16 k[B][H][P + T][128],
	       const _Float16 v[B][H][P + T][128], const uint8_t tree_mask[T][T], _Float16 o[B][H][T][128])
{
	const float scale = 1.0f / sqrtf(128.0f);
#pragma fuse kernel(tree_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < T; i++) {
				float s[P + T];
				float m = -INFINITY;
				for (int j = 0; j < P + T; j++) {
					float dot = 0.0f;
					for (int d = 0; d < 128; d++) dot += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					dot *= scale;
					if (j >= P && !tree_mask[i][j - P]) dot = -INFINITY;
					s[j] = dot;
					m = fmaxf(m, dot);
				}
				float sum = 0.0f;
				for (int j = 0; j < P + T; j++) { s[j] = expf(s[j] - m); sum += s[j]; }
				for (int d = 0; d < 128; d++) {
					float a = 0.0f;
					for (int j = 0; j < P + T; j++) a += s[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(a / sum);
				}
			}
}
