/* pf_prescaled_q_rtD.c: unmasked prefill where q is scaled before the dot product (as in
 * `q = q * self.scale` then `q @ k.transpose(-2, -1)`).
 * Style: fp16, run-time `int D`, scale computed before the region as 1/sqrtf(D), a local
 * qs[D] holding the scaled query row, stored scores, max / sum, d-outer P.V normalised
 * after. rolling(j) with tile(i:128, j:64). */
#include <math.h>

void attn_prescaled(int B, int H, int N, int D,
		    const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		    const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(attn_prescaled) parallel(b, h, i) tile(i:128, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float qs[D];
				for (int d = 0; d < D; d++)
					qs[d] = (float)q[b][h][i][d] * scale;
				float s[N];
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += qs[d] * (float)k[b][h][j][d];
					s[j] = dot;
				}
				float m = -INFINITY;
				for (int j = 0; j < N; j++)
					m = fmaxf(m, s[j]);
				float l = 0.0f;
				for (int j = 0; j < N; j++)
					l += expf(s[j] - m);
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += expf(s[j] - m) * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(acc / l);
				}
			}
}
