/* dc_alibi_slope_pbuf_rtD.c: ALiBi decode: the new token sits at position L - 1, the bias
 * is -slope[h] * (L - 1 - j) (distance to the query).
 * Style: fp16, run-time `int D`, scores in p[L], max in a separate loop, exp written back
 * into p[j] while summing, d-outer P.V over p[j] normalised after. splitk(j:8). */
#include <math.h>

void alibi_decode(int B, int H, int L, int D, float scale, const float slope[H],
		  const _Float16 q[B][H][D], const _Float16 k[B][H][L][D],
		  const _Float16 v[B][H][L][D], _Float16 o[B][H][D])
{
#pragma fuse kernel(alibi_decode) parallel(b, h) splitk(j:8)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float p[L];
			for (int j = 0; j < L; j++) {
				float qk = 0.0f;
				for (int d = 0; d < D; d++)
					qk += (float)q[b][h][d] * (float)k[b][h][j][d];
				p[j] = qk * scale - slope[h] * (float)(L - 1 - j);
			}
			float m = -INFINITY;
			for (int j = 0; j < L; j++)
				m = fmaxf(m, p[j]);
			float sum = 0.0f;
			for (int j = 0; j < L; j++) {
				p[j] = expf(p[j] - m);
				sum += p[j];
			}
			for (int d = 0; d < D; d++) {
				float acc = 0.0f;
				for (int j = 0; j < L; j++)
					acc += p[j] * (float)v[b][h][j][d];
				o[b][h][d] = (_Float16)(acc / sum);
			}
		}
}
