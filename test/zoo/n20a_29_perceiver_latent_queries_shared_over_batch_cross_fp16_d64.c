/* Perceiver cross-attention: learned latent queries lat[H][L][64] shared by every batch element (no b
 * subscript on q), keys/values from the input array per batch, no mask. */
#include <math.h>
void perceiver_cross(int B, int H, int L, int M, const _Float16 lat[H][L][64], const _Float16 k[B][H][M][64],
		     const _Float16 v[B][H][M][64], _Float16 o[B][H][L][64])
{
#pragma fuse kernel(perceiver_cross) parallel(b, h, l)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int l = 0; l < L; l++) {
				float s[M];
				float m = -INFINITY;
				for (int j = 0; j < M; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++) t += (float)lat[h][l][d] * (float)k[b][h][j][d];
					s[j] = t * 0.125f;
					m = fmaxf(m, s[j]);
				}
				float z = 0.0f;
				for (int j = 0; j < M; j++) z += expf(s[j] - m);
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < M; j++) acc += expf(s[j] - m) * (float)v[b][h][j][d];
					o[b][h][l][d] = (_Float16)(acc / z);
				}
			}
}
