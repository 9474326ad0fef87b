/* nn.MultiheadAttention key_padding_mask semantics (_Bool, true = padding -> -inf), fp32,
 * scores in a local row; a row with every key padded gives NaN in C (0/0). */
#include <math.h>
#include <stdbool.h>

void mha_keypad(int B, int H, int N, const bool key_padding_mask[B][N], const float q[B][H][N][64],
		const float k[B][H][N][64], const float v[B][H][N][64], float o[B][H][N][64])
{
#pragma fuse kernel(mha_keypad) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float att[N];
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					att[j] = s * 0.125f;
					if (key_padding_mask[b][j]) att[j] = -INFINITY;
				}
				float m = -INFINITY;
				for (int j = 0; j < N; j++) m = fmaxf(m, att[j]);
				float l = 0.0f;
				for (int j = 0; j < N; j++) { att[j] = expf(att[j] - m); l += att[j]; }
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += att[j] * v[b][h][j][d];
					o[b][h][i][d] = a / l;
				}
			}
}
