/* Shaw et al. 2018 "Self-Attention with Relative Position Representations" (tensor2tensor's
 * dot_product_attention_relative), written out in C: e_ij = q_i . (k_j + aK[clip(j-i)]) / sqrt(d),
 * z_i = sum_j p_ij (v_j + aV[clip(j-i)]), clip to [-K, K], tables indexed by clip + K.
 * Bidirectional encoder, fp32, D = 64, K a parameter (max_relative_position). */
#include <math.h>

static int clip_rel(int r, int K)
{
	return r < -K ? -K : (r > K ? K : r);
}

void shaw_rel_attn(int B, int H, int N, int K, const float q[B][H][N][64], const float k[B][H][N][64],
		   const float v[B][H][N][64], const float rel_k[2 * K + 1][64], const float rel_v[2 * K + 1][64],
		   float z[B][H][N][64])
{
	const float scale = 0.125f;
#pragma fuse kernel(shaw_rel_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float e[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					const int r = clip_rel(j - i, K) + K;
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += q[b][h][i][d] * (k[b][h][j][d] + rel_k[r][d]);
					e[j] = s * scale;
					mx = fmaxf(mx, e[j]);
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++) {
					e[j] = expf(e[j] - mx);
					sum += e[j];
				}
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) {
						const int r = clip_rel(j - i, K) + K;
						acc += e[j] * (v[b][h][j][d] + rel_v[r][d]);
					}
					z[b][h][i][d] = acc / sum;
				}
			}
}
