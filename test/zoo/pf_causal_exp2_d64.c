/* pf_causal_exp2_d64.c: causal prefill in the FlashAttention-2 habit of working in base 2:
 * the scale is premultiplied by log2(e) before the region and the exponentials are exp2f.
 * Style: fp16, `#define D 64`, qk_scale = log2(e) / sqrt(D) computed at the top of the
 * function, causal mask as a ternary on a helper local, stored scores, fmaxf max in the
 * score loop, exp2f in the sum and in the d-outer P.V, normalised after. rolling(j). */
#include <math.h>

#define D 64

void causal_exp2(int B, int H, int N,
		 const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		 const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
	const float qk_scale = 1.44269504f / sqrtf((float)D);
#pragma fuse kernel(causal_exp2) parallel(b, h, i) tile(i:128, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float qk = 0.0f;
					for (int d = 0; d < D; d++)
						qk += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					float t = qk * qk_scale;
					s[j] = j <= i ? t : -INFINITY;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++)
					l += exp2f(s[j] - m);
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += exp2f(s[j] - m) * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(acc / l);
				}
			}
}
