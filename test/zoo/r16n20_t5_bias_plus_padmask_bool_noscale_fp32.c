/* T5 encoder self-attention: no 1/sqrt(d) scaling, a relative position bias [H][N][N] added and a
 * key padding mask (_Bool [B][N], true = keep) applied with masked_fill(-inf); D=64, fp32. */
#include <math.h>
#include <stdbool.h>

void t5_enc_attn(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64],
		 const float v[B][H][N][64], const float pos_bias[H][N][N], const bool keep[B][N], float o[B][H][N][64])
{
#pragma fuse kernel(t5_enc_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = pos_bias[h][i][j];
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					if (!keep[b][j]) s = -INFINITY;
					m = fmaxf(m, s);
				}
				float z = 0.0f, acc[64] = {0};
				for (int j = 0; j < N; j++) {
					float s = pos_bias[h][i][j];
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					if (!keep[b][j]) s = -INFINITY;
					float p = expf(s - m);
					z += p;
					for (int d = 0; d < 64; d++) acc[d] += p * v[b][h][j][d];
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = acc[d] / z;
			}
}
