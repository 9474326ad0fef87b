/* A padded encoder batch (wav2vec2/BERT-style) with lengths instead of a mask: keys
 * j < len[b] only, and query rows at or past len[b] are written as zeros (what a
 * pack_padded pipeline expects). bshd, head dim 96 (e.g. 12 heads x 96 = 1152), fp16. */
#include <math.h>
#include <stdint.h>

void enc_attn_lens(int B, int N, int H, const _Float16 q[B][N][H][96], const _Float16 k[B][N][H][96],
		   const _Float16 v[B][N][H][96], const int32_t len[B], _Float16 o[B][N][H][96])
{
	const float scale = 1.0f / sqrtf(96.0f);
#pragma fuse kernel(enc_attn_lens) parallel(b, i, h) rolling(j)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N; i++)
			for (int h = 0; h < H; h++) {
				if (i >= len[b]) {
					for (int d = 0; d < 96; d++)
						o[b][i][h][d] = (_Float16)0.0f;
					continue;
				}
				float m = -INFINITY, l = 0.0f, acc[96] = {0};
				for (int j = 0; j < len[b]; j++) {
					float s = 0.0f;
					for (int d = 0; d < 96; d++)
						s += (float)q[b][i][h][d] * (float)k[b][j][h][d];
					s *= scale;
					float mn = fmaxf(m, s);
					float c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 96; d++)
						acc[d] = acc[d] * c + p * (float)v[b][j][h][d];
					m = mn;
				}
				for (int d = 0; d < 96; d++)
					o[b][i][h][d] = (_Float16)(acc[d] / l);
			}
}
