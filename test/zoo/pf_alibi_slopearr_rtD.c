/* pf_alibi_slopearr_rtD.c: ALiBi causal prefill (BLOOM-style bias slope[h] * (j - i)).
 * Style: fp16 storage, run-time `int D`, per-head slopes in an array parameter, causal
 * domain j <= i, a helper local for the bias, stored scores, max with fmaxf from
 * -FLT_MAX, sum as l = l + e, P.V d-outer with the probability normalised before the
 * multiply (p / l * v). rolling(j), parallel(b, h, i), tile(i:128, j:64). */
#include <float.h>
#include <math.h>

void alibi_prefill(int B, int H, int N, int D, float scale, const float slope[H],
		   const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		   const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(alibi_prefill) parallel(b, h, i) tile(i:128, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				for (int j = 0; j <= i; j++) {
					float qk = 0.0f;
					for (int d = 0; d < D; d++)
						qk += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					float bias = slope[h] * (float)(j - i);
					s[j] = qk * scale + bias;
				}
				float m = -FLT_MAX;
				for (int j = 0; j <= i; j++)
					m = fmaxf(m, s[j]);
				float l = 0.0f;
				for (int j = 0; j <= i; j++)
					l = l + expf(s[j] - m);
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j <= i; j++) {
						float p = expf(s[j] - m) / l;
						acc += p * (float)v[b][h][j][d];
					}
					o[b][h][i][d] = (_Float16)acc;
				}
			}
}
