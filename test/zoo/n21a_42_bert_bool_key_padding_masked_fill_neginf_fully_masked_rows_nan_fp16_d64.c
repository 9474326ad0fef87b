/* nn.MultiheadAttention(key_padding_mask=...) ported: a bool mask where true means PAD, filled with
 * -inf before the softmax; a batch whose keys are all padding gives NaN rows, as PyTorch does. */
#include <math.h>
#include <stdbool.h>

void mha_kpm(int B, int H, int N, const bool key_padding_mask[B][N], const _Float16 q[B][H][N][64],
	     const _Float16 k[B][H][N][64], const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(mha_kpm) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float att[N];
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					att[j] = key_padding_mask[b][j] ? -INFINITY : s * 0.125f;
				}
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) mx = fmaxf(mx, att[j]);
				float sum = 0.0f;
				for (int j = 0; j < N; j++) { att[j] = expf(att[j] - mx); sum += att[j]; }
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += att[j] / sum * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)acc;
				}
			}
}
