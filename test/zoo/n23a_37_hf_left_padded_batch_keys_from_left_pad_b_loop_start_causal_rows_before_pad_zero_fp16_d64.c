/* Batched generation with left padding (HF generate()): sequence b's first left_pad[b]
 * positions are padding. A query at i attends keys j in [left_pad[b], i]; padding query
 * rows (i < left_pad[b]) have no keys and are written as zeros. Loop start read from an
 * array. fp16, D = 64. */
#include <math.h>
#include <stdint.h>

void left_pad_causal(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		     const _Float16 v[B][H][N][64], const int32_t left_pad[B], _Float16 o[B][H][N][64])
{
	const float scale = 0.125f;
#pragma fuse kernel(left_pad_causal) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int j = left_pad[b]; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= scale;
					float mn = fmaxf(m, s);
					float c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++)
						acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++)
					o[b][h][i][d] = (_Float16)(l > 0.0f ? acc[d] / l : 0.0f);
			}
}
