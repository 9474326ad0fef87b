/* DIFF Transformer (Ye et al. 2024) differential attention, reference form: two softmax
 * maps from the halves of q and k (q1.k1 and q2.k2, each 64 wide), combined as
 * (softmax(q1 k1^T) - lambda * softmax(q2 k2^T)) V, with V 128 wide; causal; lambda a
 * run-time scalar. (The per-head GroupNorm afterwards is left to the next kernel.) bf16. */
#include <math.h>
#include "fusecc.h"

void diff_attn(int B, int H, int N, float lambda, const fusecc_bf16 q[B][H][N][2][64], const fusecc_bf16 k[B][H][N][2][64],
	       const fusecc_bf16 v[B][H][N][128], float o[B][H][N][128])
{
	const float scale = 0.125f;
#pragma fuse kernel(diff_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m1 = -INFINITY, m2 = -INFINITY, l1 = 0.0f, l2 = 0.0f;
				float a1[128] = {0}, a2[128] = {0};
				for (int j = 0; j <= i; j++) {
					float s1 = 0.0f, s2 = 0.0f;
					for (int d = 0; d < 64; d++) {
						s1 += fusecc_bf16_to_float(q[b][h][i][0][d]) * fusecc_bf16_to_float(k[b][h][j][0][d]);
						s2 += fusecc_bf16_to_float(q[b][h][i][1][d]) * fusecc_bf16_to_float(k[b][h][j][1][d]);
					}
					s1 *= scale;
					s2 *= scale;
					float n1 = fmaxf(m1, s1), n2 = fmaxf(m2, s2);
					float c1 = expf(m1 - n1), p1 = expf(s1 - n1);
					float c2 = expf(m2 - n2), p2 = expf(s2 - n2);
					l1 = l1 * c1 + p1;
					l2 = l2 * c2 + p2;
					for (int e = 0; e < 128; e++) {
						float ve = fusecc_bf16_to_float(v[b][h][j][e]);
						a1[e] = a1[e] * c1 + p1 * ve;
						a2[e] = a2[e] * c2 + p2 * ve;
					}
					m1 = n1;
					m2 = n2;
				}
				for (int e = 0; e < 128; e++)
					o[b][h][i][e] = a1[e] / l1 - lambda * (a2[e] / l2);
			}
}
