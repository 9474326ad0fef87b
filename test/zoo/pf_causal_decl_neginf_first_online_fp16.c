/* pf_causal_decl_neginf_first_online_fp16.c: causal prefill attention, fp16, literal head
 * dim 64, one-pass online softmax written out (m, l, acc[64] rescaled by hand). Style: the
 * mask as a declaration whose ternary puts -INFINITY first,
 * `float x = (j > i) ? -INFINITY : s * scale;`, over the full key range. The key range of
 * a row is [0, i + 1). */
#include <math.h>

void causal_online(int B, int H, int N, float scale,
		   const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		   const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(causal_online) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					float x = (j > i) ? -INFINITY : s * scale;
					float mn = fmaxf(m, x);
					float a = expf(m - mn), p = expf(x - mn);
					l = l * a + p;
					for (int d = 0; d < 64; d++)
						acc[d] = acc[d] * a + p * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
