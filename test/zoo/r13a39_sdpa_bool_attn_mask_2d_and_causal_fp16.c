/* F.scaled_dot_product_attention(q, k, v, attn_mask=M, is_causal=False) with a bool attn_mask
 * [N][N] (True = take part) shared by batch and heads, as a port of the math backend. */
#include <math.h>
#include <stdbool.h>

void sdpa_math(int B, int H, int N, int D, const bool attn_mask[N][N],
	       const _Float16 query[B][H][N][D], const _Float16 key[B][H][N][D],
	       const _Float16 value[B][H][N][D], _Float16 out[B][H][N][D])
{
	const float scale_factor = 1.0f / sqrtf((float)D);
#pragma fuse kernel(sdpa_math) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float attn_weight[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float acc = 0.0f;
					for (int d = 0; d < D; d++) acc += (float)query[b][h][i][d] * (float)key[b][h][j][d];
					float attn_bias = attn_mask[i][j] ? 0.0f : -INFINITY;
					attn_weight[j] = acc * scale_factor + attn_bias;
					mx = fmaxf(mx, attn_weight[j]);
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++) { attn_weight[j] = expf(attn_weight[j] - mx); sum += attn_weight[j]; }
				for (int j = 0; j < N; j++) attn_weight[j] /= sum;
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += attn_weight[j] * (float)value[b][h][j][d];
					out[b][h][i][d] = (_Float16)acc;
				}
			}
}
