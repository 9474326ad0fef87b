/* flash_attn_func(causal=False, window_size=(left, right)) re-implemented by someone porting
 * a test: the query's position in key coordinates is a plain (not const) int local, and the
 * two sides of the window are tested in one `if` with -1 meaning "no limit". fp16, d = 64. */
#include <math.h>

void local_attn(int B, int H, int Sq, int Sk, int left, int right, const _Float16 q[B][Sq][H][64],
		const _Float16 k[B][Sk][H][64], const _Float16 v[B][Sk][H][64], _Float16 out[B][Sq][H][64])
{
	const float scale = 0.125f;
#pragma fuse kernel(local_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < Sq; i++) {
				int q_pos = i + (Sk - Sq);
				float row_max = -INFINITY, row_sum = 0.0f;
				float o[64];
				for (int d = 0; d < 64; d++)
					o[d] = 0.0f;
				for (int j = 0; j < Sk; j++) {
					if ((left >= 0 && j < q_pos - left) || (right >= 0 && j > q_pos + right))
						continue;
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)q[b][i][h][d] * (float)k[b][j][h][d];
					s *= scale;
					float new_max = fmaxf(row_max, s);
					float corr = expf(row_max - new_max);
					float p = expf(s - new_max);
					row_sum = row_sum * corr + p;
					for (int d = 0; d < 64; d++)
						o[d] = o[d] * corr + p * (float)v[b][j][h][d];
					row_max = new_max;
				}
				for (int d = 0; d < 64; d++)
					out[b][i][h][d] = (_Float16)(row_sum > 0.0f ? o[d] / row_sum : 0.0f);
			}
}
