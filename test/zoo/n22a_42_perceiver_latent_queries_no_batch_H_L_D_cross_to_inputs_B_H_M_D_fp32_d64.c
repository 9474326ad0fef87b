/* Perceiver / Q-Former cross-attention: a learned latent array (no batch dim) queries each example's
 * inputs; q [H][L][64], k/v [B][H][M][64], output [B][H][L][64]; fp32. */
#include <math.h>

void perceiver_cross(int B, int H, int L, int M, const float latents_q[H][L][64], const float k[B][H][M][64],
		     const float v[B][H][M][64], float o[B][H][L][64])
{
#pragma fuse kernel(perceiver_cross) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < L; i++) {
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int j = 0; j < M; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += latents_q[h][i][d] * k[b][h][j][d];
					s *= 0.125f;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = acc[d] / l;
			}
}
