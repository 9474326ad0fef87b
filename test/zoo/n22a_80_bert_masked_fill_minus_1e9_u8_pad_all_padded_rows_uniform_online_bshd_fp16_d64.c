/* Older BERT/transformer ports: scores.masked_fill(mask == 0, -1e9) (not -inf), online softmax.
 * A sequence that is all padding gives a uniform average of V in C (every score -1e9): the fused
 * code must not skip those keys as "masked". */
#include <math.h>
#include <stdint.h>

void bert_fill_1e9(int B, int N, int H, const uint8_t mask[B][N], const _Float16 q[B][N][H][64], const _Float16 k[B][N][H][64],
		   const _Float16 v[B][N][H][64], _Float16 o[B][N][H][64])
{
#pragma fuse kernel(bert_fill_1e9) parallel(b, i, h)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N; i++)
			for (int h = 0; h < H; h++) {
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][i][h][d] * (float)k[b][j][h][d];
					s = mask[b][j] == 0 ? -1e9f : s * 0.125f;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * (float)v[b][j][h][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++) o[b][i][h][d] = (_Float16)(acc[d] / l);
			}
}
