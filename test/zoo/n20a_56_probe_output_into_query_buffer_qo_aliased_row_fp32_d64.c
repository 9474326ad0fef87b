/* PROBE: the result written over the query row it came from (one buffer qo, as llama2.c reuses s->xb):
 * each row reads only its own q row, all dots done before the P.V writes it. */
#include <math.h>
void attn_inplace(int B, int H, int N, float qo[B][H][N][64], const float k[B][H][N][64], const float v[B][H][N][64])
{
#pragma fuse kernel(attn_inplace) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++) t += qo[b][h][i][d] * k[b][h][j][d];
					s[j] = t * 0.125f;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j <= i; j++) { s[j] = expf(s[j] - m); l += s[j]; }
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j <= i; j++) acc += s[j] * v[b][h][j][d];
					qo[b][h][i][d] = acc / l;
				}
			}
}
