/* A PyTorch port of `scores.masked_fill(mask == 0, -1e9)` done by hand: the score row is
 * set to -1e9 everywhere first, then the causal part (j <= i) gets the scaled dot
 * products; softmax and P.V over the whole row. fp32, head dim 64. */
#include <math.h>

#define HD 64

void masked_fill_attn(int B, int H, int T, const float q[B][H][T][HD], const float k[B][H][T][HD],
		      const float v[B][H][T][HD], float out[B][H][T][HD])
{
	const float scale = 0.125f;
#pragma fuse kernel(masked_fill_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < T; i++) {
				float att[T];
				for (int j = 0; j < T; j++)
					att[j] = -1e9f;
				for (int j = 0; j < i + 1; j++) {
					float acc = 0.0f;
					for (int d = 0; d < HD; d++)
						acc += q[b][h][i][d] * k[b][h][j][d];
					att[j] = acc * scale;
				}
				float mx = -INFINITY;
				for (int j = 0; j < T; j++)
					mx = fmaxf(mx, att[j]);
				float sum = 0.0f;
				for (int j = 0; j < T; j++) {
					att[j] = expf(att[j] - mx);
					sum += att[j];
				}
				for (int d = 0; d < HD; d++) {
					float o = 0.0f;
					for (int j = 0; j < T; j++)
						o += att[j] / sum * v[b][h][j][d];
					out[b][h][i][d] = o;
				}
			}
}
