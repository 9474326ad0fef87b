/* Tree-attention verify with the tree given as a parent array (parent[t] = -1 at the root): draft
 * token t sees every cached token and its ancestors among the drafts, found by walking parents in
 * a while loop inside the key loop (a reference implementation, not a fast one). */
#include <math.h>
#include <stdint.h>

void tree_walk(int B, int H, int T, int L, const int32_t parent[T], const _Float16 q[B][H][T][64],
	       const _Float16 kc[B][H][L + T][64], const _Float16 vc[B][H][L + T][64], _Float16 o[B][H][T][64])
{
#pragma fuse kernel(tree_walk) parallel(b, h, t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int t = 0; t < T; t++) {
				float m = -INFINITY, l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int j = 0; j < L + T; j++) {
					int visible = j < L;
					if (!visible) {
						int a = t;
						while (a >= 0 && a != j - L) a = parent[a];
						visible = a == j - L;
					}
					if (!visible) continue;
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][t][d] * (float)kc[b][h][j][d];
					s *= 0.125f;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * (float)vc[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++) o[b][h][t][d] = (_Float16)(acc[d] / l);
			}
}
