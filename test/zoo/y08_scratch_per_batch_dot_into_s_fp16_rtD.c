/* y08_scratch_per_batch_dot_into_s_fp16_rtD.c: both habits at once: the score buffer is
 * declared once per batch, before the head loop, and the dot product is accumulated
 * straight into it (s[j] = 0; s[j] += q * k; s[j] = s[j] * scale).
 * Style: fp16 storage with (float) casts, run-time `int D`, scale passed in, causal by a
 * `j < i + 1` bound, max in the score loop, exp stored back, d-outer P.V. rolling(j),
 * parallel(b, h, i), tile(i:128, j:64). */
#include <math.h>

void causal_scratch_per_batch(int B, int H, int N, int D, float scale,
			      const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
			      const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(causal_scratch_per_batch) parallel(b, h, i) tile(i:128, j:64) rolling(j)
	for (int b = 0; b < B; b++) {
		float s[N];
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j < i + 1; j++) {
					s[j] = 0.0f;
					for (int d = 0; d < D; d++)
						s[j] += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = s[j] * scale;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < i + 1; j++) {
					s[j] = expf(s[j] - m);
					l += s[j];
				}
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < i + 1; j++)
						acc += s[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(acc / l);
				}
			}
	}
}
