/* Differential Transformer attention: two softmax maps from two query/key halves (q1.k1 and q2.k2),
 * combined as softmax1 - lambda * softmax2 over the same V; causal; both maps' sums in one key loop. */
#include <math.h>

void diff_attn(int B, int H, int N, float lambda, const _Float16 q1[B][H][N][64], const _Float16 k1[B][H][N][64],
	       const _Float16 q2[B][H][N][64], const _Float16 k2[B][H][N][64], const _Float16 v[B][H][N][128],
	       _Float16 o[B][H][N][128])
{
#pragma fuse kernel(diff_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m1 = -INFINITY, m2 = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float s1 = 0.0f, s2 = 0.0f;
					for (int d = 0; d < 64; d++) {
						s1 += (float)q1[b][h][i][d] * (float)k1[b][h][j][d];
						s2 += (float)q2[b][h][i][d] * (float)k2[b][h][j][d];
					}
					m1 = fmaxf(m1, s1 * 0.125f);
					m2 = fmaxf(m2, s2 * 0.125f);
				}
				float l1 = 0.0f, l2 = 0.0f, a1[128] = {0}, a2[128] = {0};
				for (int j = 0; j <= i; j++) {
					float s1 = 0.0f, s2 = 0.0f;
					for (int d = 0; d < 64; d++) {
						s1 += (float)q1[b][h][i][d] * (float)k1[b][h][j][d];
						s2 += (float)q2[b][h][i][d] * (float)k2[b][h][j][d];
					}
					const float p1 = expf(s1 * 0.125f - m1), p2 = expf(s2 * 0.125f - m2);
					l1 += p1;
					l2 += p2;
					for (int d = 0; d < 128; d++) {
						a1[d] += p1 * (float)v[b][h][j][d];
						a2[d] += p2 * (float)v[b][h][j][d];
					}
				}
				for (int d = 0; d < 128; d++) o[b][h][i][d] = (_Float16)(a1[d] / l1 - lambda * a2[d] / l2);
			}
}
