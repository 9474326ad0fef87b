/* KERPLE (Chi et al. 2022) logarithmic relative bias, as the authors' reference adds it:
 * bias_ij = -r1[h] * log(1 + r2[h] * |i - j|), r1, r2 > 0 learned per head; causal. fp16. */
#include <math.h>
#include <stdlib.h>

void kerple_attn(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		 const _Float16 v[B][H][N][64], const float r1[H], const float r2[H], _Float16 o[B][H][N][64])
{
	const float scale = 0.125f;
#pragma fuse kernel(kerple_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const float a = fabsf(r1[h]), c2 = fabsf(r2[h]);
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s = s * scale - a * log1pf(c2 * (float)abs(i - j));
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
