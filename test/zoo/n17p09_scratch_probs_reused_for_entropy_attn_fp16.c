/* Probe: the scores row s[N] holds scores, then normalised probabilities (in place), then is
 * read again for the attention entropy -sum p log p, stored beside the output. D = 64. */
#include <math.h>

void attn_entropy(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		  const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64], float ent[B][H][N])
{
#pragma fuse kernel(attn_entropy) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++) t += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = t * 0.125f;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) { s[j] = expf(s[j] - m); l += s[j]; }
				for (int j = 0; j < N; j++) s[j] = s[j] / l;
				float hsum = 0.0f;
				for (int j = 0; j < N; j++) hsum -= s[j] * logf(s[j]);
				ent[b][h][i] = hsum;
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += s[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)a;
				}
			}
}
