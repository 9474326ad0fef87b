/* pf_causal_lse_out_rtD.c: causal prefill that also returns the row log-sum-exp (the
 * softmax_lse FlashAttention saves for the backward pass).
 * Style: fp16 output, fp32 lse[B][H][N], run-time `int D`, full j range with the mask as
 * a ternary, max taken in the score loop, exp stored back into s[j] with the sum in the
 * same loop, d-outer P.V normalised after, lse = m + logf(l).
 * rolling(j), tile(i:128, j:64). */
#include <math.h>

void causal_with_lse(int B, int H, int N, int D, float scale,
		     const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		     const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D], float lse[B][H][N])
{
#pragma fuse kernel(causal_with_lse) parallel(b, h, i) tile(i:128, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = j > i ? -INFINITY : dot * scale;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) {
					s[j] = expf(s[j] - m);
					l += s[j];
				}
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += s[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(acc / l);
				}
				lse[b][h][i] = m + logf(l);
			}
}
