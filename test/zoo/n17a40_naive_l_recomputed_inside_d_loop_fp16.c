/* The most naive port: for each output column d, recompute the max? no: the max once, then
 * for every d the denominator and the weighted sum together in one key loop. D = 64, causal. */
#include <math.h>

void attn_naive_d(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		  const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(attn_naive_d) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					m = fmaxf(m, s * 0.125f);
				}
				for (int d = 0; d < 64; d++) {
					float l = 0.0f, a = 0.0f;
					for (int j = 0; j <= i; j++) {
						float s = 0.0f;
						for (int e = 0; e < 64; e++) s += (float)q[b][h][i][e] * (float)k[b][h][j][e];
						const float p = expf(s * 0.125f - m);
						l += p;
						a += p * (float)v[b][h][j][d];
					}
					o[b][h][i][d] = (_Float16)(a / l);
				}
			}
}
