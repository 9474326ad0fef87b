/* pf_softcap_gqa_hdivG_rtD.c: Gemma-2-style causal prefill with logit soft-capping
 * (cap * tanh(s / cap)) and grouped KV heads.
 * Style: fp16 storage, run-time `int D`, GQA by index: H query heads, G query heads per
 * KV head, K and V declared with H / G heads and read at k[b][h / G][j][d]; the cap is a
 * float parameter; causal mask as an `if` on a recomputed score in each of three passes
 * (max, sum, j-outer P.V into acc[D]). rolling(j), tile(i:64, j:64). */
#include <math.h>

void softcap_gqa(int B, int H, int G, int N, int D, float scale, float cap,
		 const _Float16 q[B][H][N][D], const _Float16 k[B][H / G][N][D],
		 const _Float16 v[B][H / G][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(softcap_gqa) parallel(b, h, i) tile(i:64, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h / G][j][d];
					s = cap * tanhf(s * scale / cap);
					if (j > i)
						s = -INFINITY;
					m = fmaxf(m, s);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h / G][j][d];
					s = cap * tanhf(s * scale / cap);
					if (j > i)
						s = -INFINITY;
					l += expf(s - m);
				}
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h / G][j][d];
					s = cap * tanhf(s * scale / cap);
					if (j > i)
						s = -INFINITY;
					float p = expf(s - m);
					for (int d = 0; d < D; d++)
						acc[d] += p * (float)v[b][h / G][j][d];
				}
				for (int d = 0; d < D; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
