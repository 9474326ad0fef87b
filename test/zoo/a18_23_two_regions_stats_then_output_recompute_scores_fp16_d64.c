/* A two-pass port (as in memory-efficient attention references): the first region computes each
 * row's max and log-sum-exp into outputs, the second recomputes the scores and normalises with
 * the stored statistics. */
#include <math.h>

void attn_two_pass(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		   const _Float16 v[B][H][N][64], float row_max[B][H][N], float row_lse[B][H][N], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(attn_stats) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float s = 0;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					m = fmaxf(m, s * 0.125f);
				}
				float l = 0;
				for (int j = 0; j <= i; j++) {
					float s = 0;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					l += expf(s * 0.125f - m);
				}
				row_max[b][h][i] = m;
				row_lse[b][h][i] = m + logf(l);
			}
#pragma fuse kernel(attn_out) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++)
				for (int d = 0; d < 64; d++) {
					float acc = 0;
					for (int j = 0; j <= i; j++) {
						float s = 0;
						for (int e = 0; e < 64; e++) s += (float)q[b][h][i][e] * (float)k[b][h][j][e];
						acc += expf(s * 0.125f - row_lse[b][h][i]) * (float)v[b][h][j][d];
					}
					o[b][h][i][d] = (_Float16)acc;
				}
}
