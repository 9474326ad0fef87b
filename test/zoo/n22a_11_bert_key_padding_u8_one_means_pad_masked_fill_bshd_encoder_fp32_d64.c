/* nn.TransformerEncoderLayer's key_padding_mask as uint8 (1 = padding, ignored), encoder
 * bidirectional, bshd (batch_first=True) layout, fp32; three passes over a score row. */
#include <math.h>
#include <stdint.h>

void encoder_attn(int B, int N, int H, const float q[B][N][H][64], const float k[B][N][H][64], const float v[B][N][H][64],
		  const uint8_t key_padding_mask[B][N], float out[B][N][H][64])
{
#pragma fuse kernel(encoder_attn) parallel(b, i, h)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N; i++)
			for (int h = 0; h < H; h++) {
				float att[N];
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += q[b][i][h][d] * k[b][j][h][d];
					att[j] = key_padding_mask[b][j] ? -INFINITY : s * 0.125f;
				}
				float mx = att[0];
				for (int j = 1; j < N; j++)
					if (att[j] > mx) mx = att[j];
				float tot = 0.0f;
				for (int j = 0; j < N; j++) {
					att[j] = expf(att[j] - mx);
					tot += att[j];
				}
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += att[j] * v[b][j][h][d];
					out[b][i][h][d] = acc / tot;
				}
			}
}
