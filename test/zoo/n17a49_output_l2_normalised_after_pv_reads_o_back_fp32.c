/* Attention whose output row is L2-normalised afterwards (cosine-style heads): o is stored,
 * read back for its norm, and rescaled in place. fp32, D = 64, causal. */
#include <math.h>

void attn_then_l2(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64],
		  const float v[B][H][N][64], float o[B][H][N][64])
{
#pragma fuse kernel(attn_then_l2) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					m = fmaxf(m, s * 0.125f);
				}
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					l += expf(s * 0.125f - m);
				}
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j <= i; j++) {
						float s = 0.0f;
						for (int e = 0; e < 64; e++) s += q[b][h][i][e] * k[b][h][j][e];
						a += expf(s * 0.125f - m) * v[b][h][j][d];
					}
					o[b][h][i][d] = a / l;
				}
				float nrm = 0.0f;
				for (int d = 0; d < 64; d++) nrm += o[b][h][i][d] * o[b][h][i][d];
				const float inv = 1.0f / sqrtf(nrm + 1e-12f);
				for (int d = 0; d < 64; d++) o[b][h][i][d] *= inv;
			}
}
