/* GPT-J / NeoX-interleaved RoPE applied inside the q.k loop (a researcher who does not want to
 * materialise rotated q/k): pairs (2p, 2p+1) rotated by cos/sin tables [N][32], D=64, causal. */
#include <math.h>

void rope_attn(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
	       const _Float16 v[B][H][N][64], const float cos_t[N][32], const float sin_t[N][32],
	       _Float16 o[B][H][N][64])
{
	const float scale = 0.125f;
#pragma fuse kernel(rope_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int p = 0; p < 32; p++) {
						float q0 = (float)q[b][h][i][2 * p], q1 = (float)q[b][h][i][2 * p + 1];
						float k0 = (float)k[b][h][j][2 * p], k1 = (float)k[b][h][j][2 * p + 1];
						float qr0 = q0 * cos_t[i][p] - q1 * sin_t[i][p];
						float qr1 = q0 * sin_t[i][p] + q1 * cos_t[i][p];
						float kr0 = k0 * cos_t[j][p] - k1 * sin_t[j][p];
						float kr1 = k0 * sin_t[j][p] + k1 * cos_t[j][p];
						s += qr0 * kr0 + qr1 * kr1;
					}
					s *= scale;
					float mn = fmaxf(m, s);
					float c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
