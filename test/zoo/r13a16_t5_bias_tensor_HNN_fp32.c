/* T5: position_bias[H][N][N] added to unscaled scores (T5 does not scale), fp32, D 64. */
#include <math.h>

void t5_attn(int B, int H, int N, const float position_bias[H][N][N],
	     const float q[B][H][N][64], const float k[B][H][N][64], const float v[B][H][N][64],
	     float o[B][H][N][64])
{
#pragma fuse kernel(t5_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float scores[N];
				for (int j = 0; j < N; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++) t += q[b][h][i][d] * k[b][h][j][d];
					scores[j] = t + position_bias[h][i][j];
				}
				float m = scores[0];
				for (int j = 1; j < N; j++) m = scores[j] > m ? scores[j] : m;
				float l = 0.0f;
				for (int j = 0; j < N; j++) l += expf(scores[j] - m);
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += expf(scores[j] - m) / l * v[b][h][j][d];
					o[b][h][i][d] = a;
				}
			}
}
