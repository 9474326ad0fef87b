/* T5 encoder self-attention: no 1/sqrt(d) scaling, position_bias = relative_attention_bias[bucket(i, j)]
 * with the bucket matrix precomputed on the host (int32 [N][N]) and the embedding table [NB][H]. */
#include <math.h>
#include <stdint.h>

void t5_encoder_attn(int B, int H, int N, int NB, const float q[B][H][N][64], const float k[B][H][N][64],
		     const float v[B][H][N][64], const int32_t bucket[N][N], const float rel_bias[NB][H],
		     float o[B][H][N][64])
{
#pragma fuse kernel(t5_encoder_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float scores[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = rel_bias[bucket[i][j]][h];
					for (int d = 0; d < 64; d++)
						s += q[b][h][i][d] * k[b][h][j][d];
					scores[j] = s;
					mx = fmaxf(mx, s);
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++) {
					scores[j] = expf(scores[j] - mx);
					sum += scores[j];
				}
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += scores[j] / sum * v[b][h][j][d];
					o[b][h][i][d] = acc;
				}
			}
}
