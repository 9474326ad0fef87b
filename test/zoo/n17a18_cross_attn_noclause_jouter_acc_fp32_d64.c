/* Cross attention in fp32 as a textbook student writes it: no clause, weights in w[NK], P.V
 * j-outer accumulating into acc[64], then normalised at the store. */
#include <math.h>

void xattn(int B, int H, int NQ, int NK, const float q[B][H][NQ][64], const float k[B][H][NK][64],
	   const float v[B][H][NK][64], float o[B][H][NQ][64])
{
#pragma fuse kernel(xattn)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < NQ; i++) {
				float w[NK];
				float mx = -INFINITY;
				for (int j = 0; j < NK; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					w[j] = s / 8.0f;
					mx = fmaxf(mx, w[j]);
				}
				float sum = 0.0f;
				float acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int j = 0; j < NK; j++) {
					float p = expf(w[j] - mx);
					sum += p;
					for (int d = 0; d < 64; d++) acc[d] += p * v[b][h][j][d];
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = acc[d] / sum;
			}
}
