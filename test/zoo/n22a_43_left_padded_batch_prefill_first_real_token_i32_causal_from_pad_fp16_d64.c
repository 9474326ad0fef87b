/* Batched generation with left padding (HF tokenizer padding_side="left"): pad[b] leading pad tokens;
 * query i (i >= pad[b]) attends keys pad[b] <= j <= i; rows of pad queries are computed too but never
 * used (their key range is empty, so the reference leaves... a 0/0). Written by someone who just
 * starts the key loop at the first real token. */
#include <math.h>
#include <stdint.h>

void left_pad_prefill(int B, int H, int N, const int32_t pad[B], const _Float16 q[B][H][N][64],
		      const _Float16 k[B][H][N][64], const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(left_pad_prefill) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int j = pad[b]; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= 0.125f;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
