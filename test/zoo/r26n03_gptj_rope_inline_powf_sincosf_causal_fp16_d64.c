/* GPT-J style rotary (interleaved pairs 2p, 2p+1) computed inline, as a student writes it from the
 * RoFormer paper without a table: theta = pos * 10000^(-2p/D) with powf, then sinf/cosf, for the query
 * at i and the key at j inside the score loop. Causal, fp16 storage, fp32 math, D = 64. */
#include <math.h>

void gptj_rope_attn(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		    const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(gptj_rope_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++)
					acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int p = 0; p < 32; p++) {
						float freq = powf(10000.0f, -2.0f * (float)p / 64.0f);
						float ti = (float)i * freq, tj = (float)j * freq;
						float qa = (float)q[b][h][i][2 * p], qb = (float)q[b][h][i][2 * p + 1];
						float ka = (float)k[b][h][j][2 * p], kb = (float)k[b][h][j][2 * p + 1];
						float qra = qa * cosf(ti) - qb * sinf(ti), qrb = qa * sinf(ti) + qb * cosf(ti);
						float kra = ka * cosf(tj) - kb * sinf(tj), krb = ka * sinf(tj) + kb * cosf(tj);
						s += qra * kra + qrb * krb;
					}
					s *= 0.125f;
					float mn = fmaxf(m, s), c = expf(m - mn), e = expf(s - mn);
					l = l * c + e;
					for (int d = 0; d < 64; d++)
						acc[d] = acc[d] * c + e * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
