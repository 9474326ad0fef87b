/* Learned 1-D relative position bias (Transformer-XL-lite / Music Transformer style): a table
 * [H][2N-1] read at j - i + N - 1, added to the scaled scores, bidirectional encoder. */
#include <math.h>

void rel1d_attn(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		const _Float16 v[B][H][N][64], const float rel_bias[H][2 * N - 1], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(rel1d_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s = s * 0.125f + rel_bias[h][j - i + N - 1];
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
