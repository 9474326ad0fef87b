/* HuggingFace eager attention with output_attentions=True: the probabilities are a second output
 * [B][H][N][N] besides the attention output (what people port when they need the maps). */
#include <math.h>

void attn_with_weights(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64],
		       const float v[B][H][N][64], float attn_weights[B][H][N][N], float o[B][H][N][64])
{
#pragma fuse kernel(attn_with_weights) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					attn_weights[b][h][i][j] = s * 0.125f;
					mx = fmaxf(mx, attn_weights[b][h][i][j]);
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++) {
					attn_weights[b][h][i][j] = expf(attn_weights[b][h][i][j] - mx);
					sum += attn_weights[b][h][i][j];
				}
				for (int j = 0; j < N; j++) attn_weights[b][h][i][j] /= sum;
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += attn_weights[b][h][i][j] * v[b][h][j][d];
					o[b][h][i][d] = acc;
				}
			}
}
