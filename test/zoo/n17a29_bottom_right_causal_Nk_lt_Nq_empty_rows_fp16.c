/* FlashAttention-2 bottom-right causal alignment, j <= i + NK - NQ, with NK < NQ allowed: the
 * first NQ - NK query rows see no key and C gives 0/0 = NaN there. D = 64. */
#include <math.h>

void causal_br(int B, int H, int NQ, int NK, const _Float16 q[B][H][NQ][64], const _Float16 k[B][H][NK][64],
	       const _Float16 v[B][H][NK][64], _Float16 o[B][H][NQ][64])
{
#pragma fuse kernel(causal_br) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < NQ; i++) {
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int j = 0; j < NK && j <= i + NK - NQ; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					m = fmaxf(m, s * 0.125f);
				}
				for (int j = 0; j < NK && j <= i + NK - NQ; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					float p = expf(s * 0.125f - m);
					l += p;
					for (int d = 0; d < 64; d++) acc[d] += p * (float)v[b][h][j][d];
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
