/* Longformer / BigBird-ITC style mask: a key is visible when |i - j| <= W, or when either token is one
 * of the first NG global tokens; bidirectional; the mask written with abs() as in the paper. */
#include <math.h>
#include <stdlib.h>

void longformer_attn(int B, int H, int N, int W, int NG, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		     const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(longformer_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int j = 0; j < N; j++) {
					if (abs(i - j) > W && i >= NG && j >= NG)
						continue;
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= 0.125f;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
