/* Transformer-XL relative attention (Dai et al. 2019), without the rel_shift trick, as a
 * researcher writes the reference: score = (q_i + u) . k_j  +  (q_i + vb) . r_{i-j}, with the
 * projected relative embeddings r stored for distances 0..N-1 (r[dist][h][d]), content
 * bias u and position bias vb per head; causal; scale 1/sqrt(d). fp32, D = 64. */
#include <math.h>

void rel_attn_xl(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64], const float v[B][H][N][64],
		 const float r[N][H][64], const float u[H][64], const float vb[H][64], float o[B][H][N][64])
{
	const float scale = 0.125f;
#pragma fuse kernel(rel_attn_xl) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float att[N];
				float mx = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float ac = 0.0f, bd = 0.0f;
					for (int d = 0; d < 64; d++) {
						ac += (q[b][h][i][d] + u[h][d]) * k[b][h][j][d];
						bd += (q[b][h][i][d] + vb[h][d]) * r[i - j][h][d];
					}
					att[j] = (ac + bd) * scale;
					mx = fmaxf(mx, att[j]);
				}
				float sum = 0.0f;
				for (int j = 0; j <= i; j++) {
					att[j] = expf(att[j] - mx);
					sum += att[j];
				}
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j <= i; j++)
						acc += att[j] * v[b][h][j][d];
					o[b][h][i][d] = acc / sum;
				}
			}
}
