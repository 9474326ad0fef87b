/* T5 encoder self-attention: no 1/sqrt(d) scale, a position bias [H][N][N] added to the
 * score; BSHD layout (q[b][i][h][d]) as HF keeps hidden states; fp32. */
#include <math.h>

void t5_attn(int B, int N, int H, const float q[B][N][H][64], const float k[B][N][H][64],
	     const float v[B][N][H][64], const float pos_bias[H][N][N], float o[B][N][H][64])
{
#pragma fuse kernel(t5_attn) parallel(b, i, h) rolling(j)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N; i++)
			for (int h = 0; h < H; h++) {
				float s[N];
				for (int j = 0; j < N; j++) {
					s[j] = pos_bias[h][i][j];
					for (int d = 0; d < 64; d++) s[j] += q[b][i][h][d] * k[b][j][h][d];
				}
				float m = s[0];
				for (int j = 1; j < N; j++) m = s[j] > m ? s[j] : m;
				float z = 0.0f;
				for (int j = 0; j < N; j++) { s[j] = expf(s[j] - m); z += s[j]; }
				for (int d = 0; d < 64; d++) {
					float r = 0.0f;
					for (int j = 0; j < N; j++) r += s[j] * v[b][j][h][d];
					o[b][i][h][d] = r / z;
				}
			}
}
