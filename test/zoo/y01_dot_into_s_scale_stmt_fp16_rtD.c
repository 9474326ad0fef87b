/* y01_dot_into_s_scale_stmt_fp16_rtD.c: unmasked prefill attention with the dot product
 * accumulated straight into the score buffer, as a first port of
 * `S = (q @ k.T) * scale` often reads: s[j] = 0, then s[j] += q * k over d, then
 * s[j] *= scale in place.
 * Style: fp16 storage read through (float) casts, run-time `int D`, scale passed in,
 * scores in a local float s[N] of the row, max in the score loop, exp stored back into
 * s[j], d-outer P.V divided at the end. rolling(j), parallel(b, h, i), tile(i:128, j:64). */
#include <math.h>

void attn_dot_into_s(int B, int H, int N, int D, float scale,
		     const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		     const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(attn_dot_into_s) parallel(b, h, i) tile(i:128, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					s[j] = 0.0f;
					for (int d = 0; d < D; d++)
						s[j] += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] *= scale;
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
			}
}
