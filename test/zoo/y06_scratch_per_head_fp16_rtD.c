/* y06_scratch_per_head_fp16_rtD.c: unmasked prefill with the score buffer declared once
 * per (b, h), outside the row loop, and reused for every query row i (a habit from code
 * that allocates scratch once per head): each row writes s[0..N) before reading it.
 * Style: fp16 storage with (float) casts, run-time `int D`, scale passed in, dot into a
 * scalar then s[j] = dot * scale, max in the score loop, exp stored back, d-outer P.V.
 * rolling(j), parallel(b, h, i), tile(i:128, j:64). */
#include <math.h>

void attn_scratch_per_head(int B, int H, int N, int D, float scale,
			   const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
			   const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(attn_scratch_per_head) parallel(b, h, i) tile(i:128, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float s[N];
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = dot * scale;
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
}
