/* An encoder with symmetric ALiBi (bidirectional, as in some BERT-ALiBi ports): the bias is
 * -slope[h] * |i - j|, slopes passed in; fp32 storage; two passes over the keys (max, then
 * weights and values), nothing stored. */
#include <math.h>
#include <stdlib.h>

void alibi_encoder(int B, int H, int L, const float slopes[H], const float x_q[B][H][L][64],
		   const float x_k[B][H][L][64], const float x_v[B][H][L][64], float y[B][H][L][64])
{
#pragma fuse kernel(alibi_encoder)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < L; i++) {
				float best = -INFINITY;
				for (int j = 0; j < L; j++) {
					float e = 0.0f;
					for (int d = 0; d < 64; d++) e += x_q[b][h][i][d] * x_k[b][h][j][d];
					e = e * 0.125f - slopes[h] * (float)abs(i - j);
					best = fmaxf(best, e);
				}
				float norm = 0.0f, out[64];
				for (int d = 0; d < 64; d++) out[d] = 0.0f;
				for (int j = 0; j < L; j++) {
					float e = 0.0f;
					for (int d = 0; d < 64; d++) e += x_q[b][h][i][d] * x_k[b][h][j][d];
					e = e * 0.125f - slopes[h] * (float)abs(i - j);
					const float w = expf(e - best);
					norm += w;
					for (int d = 0; d < 64; d++) out[d] += w * x_v[b][h][j][d];
				}
				for (int d = 0; d < 64; d++) y[b][h][i][d] = out[d] / norm;
			}
}
