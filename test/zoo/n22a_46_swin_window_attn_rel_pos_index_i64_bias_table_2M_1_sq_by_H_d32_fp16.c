/* Swin-V1 window attention: relative_position_bias_table [(2M-1)^2][H] gathered through the int64
 * relative_position_index [N][N] (N = M*M tokens of a window), windows batched as B; head dim 32. */
#include <math.h>
#include <stdint.h>

void swin_window_attn(int B, int H, int N, int TBL, const _Float16 q[B][H][N][32], const _Float16 k[B][H][N][32],
		      const _Float16 v[B][H][N][32], const float bias_table[TBL][H],
		      const int64_t rel_index[N][N], _Float16 o[B][H][N][32])
{
	const float scale = 0.17677669529663687f;
#pragma fuse kernel(swin_window_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float attn[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 32; d++) s += (float)q[b][h][i][d] * scale * (float)k[b][h][j][d];
					attn[j] = s + bias_table[rel_index[i][j]][h];
					if (attn[j] > mx) mx = attn[j];
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++) sum += (attn[j] = expf(attn[j] - mx));
				for (int d = 0; d < 32; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += attn[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(acc / sum);
				}
			}
}
