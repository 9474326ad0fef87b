/* y04_dot_into_s_bias_fp16_rtD.c: attention with an additive relative-position bias per
 * head (T5 style, already bucketed by the caller), the score buffer initialised with the
 * bias and the dot product accumulated into it, then scaled in place:
 * s[j] = bias[h][i][j]; s[j] += q * k; s[j] *= scale.
 * Style: fp16 storage with (float) casts, run-time `int D`, scale passed in, max in the
 * score loop with a branch (if (s[j] > m) m = s[j]), exp stored back, d-outer P.V.
 * rolling(j), parallel(b, h, i), tile(i:128, j:64). */
#include <math.h>

void biased_attention(int B, int H, int N, int D, float scale, const float bias[H][N][N],
		      const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		      const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(biased_attention) parallel(b, h, i) tile(i:128, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					s[j] = bias[h][i][j];
					for (int d = 0; d < D; d++)
						s[j] += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] *= scale;
					if (s[j] > m)
						m = s[j];
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
			}
}
