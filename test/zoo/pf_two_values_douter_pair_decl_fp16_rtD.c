/* pf_two_values_douter_pair_decl_fp16_rtD.c: causal attention with two value tensors
 * sharing one softmax.
 * Style: P.V d-outer with both accumulators in one declaration (float a1 = 0.0f, a2 =
 * 0.0f;) and one loop over j adding to both; probabilities stored in s[N]
 * (exponentials written back); fp16, run-time D. rolling(j). */
#include <math.h>

void two_v(int B, int H, int N, int D, float scale,
	   const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
	   const _Float16 v[B][H][N][D], const _Float16 v2[B][H][N][D],
	   _Float16 o[B][H][N][D], _Float16 o2[B][H][N][D])
{
#pragma fuse kernel(two_v) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float x = 0.0f;
					for (int d = 0; d < D; d++)
						x += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = x * scale;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j <= i; j++) {
					s[j] = expf(s[j] - m);
					l += s[j];
				}
				for (int d = 0; d < D; d++) {
					float a1 = 0.0f, a2 = 0.0f;
					for (int j = 0; j <= i; j++) {
						a1 += s[j] * (float)v[b][h][j][d];
						a2 += s[j] * (float)v2[b][h][j][d];
					}
					o[b][h][i][d] = (_Float16)(a1 / l);
					o2[b][h][i][d] = (_Float16)(a2 / l);
				}
			}
}
