/* T5 encoder self-attention: no 1/sqrt(d) scale, a position bias shared by the batch
 * (position_bias[1][H][L][L], read at [0]), the output multiplied by 1/l in its own loop after
 * accumulating unnormalised. */
#include <math.h>

void t5_attn(int B, int H, int L, const float q[B][H][L][64], const float k[B][H][L][64], const float v[B][H][L][64],
	     const float position_bias[1][H][L][L], float o[B][H][L][64])
{
#pragma fuse kernel(t5_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < L; i++) {
				float sc[L];
				float m = -INFINITY;
				for (int j = 0; j < L; j++) {
					sc[j] = position_bias[0][h][i][j];
					for (int d = 0; d < 64; d++) sc[j] += q[b][h][i][d] * k[b][h][j][d];
					m = fmaxf(m, sc[j]);
				}
				float l = 0.0f;
				float acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int j = 0; j < L; j++) {
					float p = expf(sc[j] - m);
					l += p;
					for (int d = 0; d < 64; d++) acc[d] += p * v[b][h][j][d];
				}
				const float inv_l = 1.0f / l;
				for (int d = 0; d < 64; d++) acc[d] *= inv_l;
				for (int d = 0; d < 64; d++) o[b][h][i][d] = acc[d];
			}
}
