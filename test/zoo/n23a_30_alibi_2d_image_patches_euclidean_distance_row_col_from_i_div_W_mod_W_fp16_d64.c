/* 2D ALiBi for a ViT over a Hp x Wp grid of patches (as in several vision papers): the bias
 * is -slope[h] * sqrt(dy^2 + dx^2), where a token's row and column come from its index
 * (n / Wp, n % Wp). Bidirectional, N = Hp * Wp tokens. fp16, D = 64. */
#include <math.h>

void alibi2d_attn(int B, int H, int Hp, int Wp, const _Float16 q[B][H][Hp * Wp][64],
		  const _Float16 k[B][H][Hp * Wp][64], const _Float16 v[B][H][Hp * Wp][64], const float slope[H],
		  _Float16 o[B][H][Hp * Wp][64])
{
	const int N = Hp * Wp;
	const float scale = 0.125f;
#pragma fuse kernel(alibi2d_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int yi = i / Wp, xi = i % Wp;
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int j = 0; j < N; j++) {
					const float dy = (float)(j / Wp - yi), dx = (float)(j % Wp - xi);
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s = s * scale - slope[h] * sqrtf(dy * dy + dx * dx);
					float mn = fmaxf(m, s);
					float c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++)
						acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
