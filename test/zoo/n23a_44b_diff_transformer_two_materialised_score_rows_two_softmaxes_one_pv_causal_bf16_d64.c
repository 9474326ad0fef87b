/* n23a_44's differential attention written with the scores materialised (the PyTorch
 * reference's two attn_weights rows): s1 and s2 rows, a max and a sum for each, then one
 * P.V loop with p1 / l1 - lambda * p2 / l2. Causal, bf16 q/k/v, fp32 output. */
#include <math.h>
#include "fusecc.h"

void diff_attn_rows(int B, int H, int N, float lambda, const fusecc_bf16 q[B][H][N][2][64],
		    const fusecc_bf16 k[B][H][N][2][64], const fusecc_bf16 v[B][H][N][128], float o[B][H][N][128])
{
	const float scale = 0.125f;
#pragma fuse kernel(diff_attn_rows) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s1[N], s2[N];
				float m1 = -INFINITY, m2 = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float x1 = 0.0f, x2 = 0.0f;
					for (int d = 0; d < 64; d++) {
						x1 += fusecc_bf16_to_float(q[b][h][i][0][d]) * fusecc_bf16_to_float(k[b][h][j][0][d]);
						x2 += fusecc_bf16_to_float(q[b][h][i][1][d]) * fusecc_bf16_to_float(k[b][h][j][1][d]);
					}
					s1[j] = x1 * scale;
					s2[j] = x2 * scale;
					m1 = fmaxf(m1, s1[j]);
					m2 = fmaxf(m2, s2[j]);
				}
				float l1 = 0.0f, l2 = 0.0f;
				for (int j = 0; j <= i; j++) {
					s1[j] = expf(s1[j] - m1);
					s2[j] = expf(s2[j] - m2);
					l1 += s1[j];
					l2 += s2[j];
				}
				for (int e = 0; e < 128; e++) {
					float acc = 0.0f;
					for (int j = 0; j <= i; j++)
						acc += (s1[j] / l1 - lambda * s2[j] / l2) * fusecc_bf16_to_float(v[b][h][j][e]);
					o[b][h][i][e] = acc;
				}
			}
}
