/* An online softmax by hand that writes the normalised output after every key (the last key's
 * store is the answer), as a streaming implementation that can be stopped at any time would. */
#include <math.h>

void attn_stream_store(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64], const float v[B][H][N][64],
		       float o[B][H][N][64])
{
#pragma fuse kernel(attn_stream_store) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					s *= 0.125f;
					const float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++) {
						acc[d] = acc[d] * c + p * v[b][h][j][d];
						o[b][h][i][d] = acc[d] / l;
					}
					m = mn;
				}
			}
}
