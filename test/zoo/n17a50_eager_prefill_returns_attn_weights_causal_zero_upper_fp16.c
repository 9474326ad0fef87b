/* HF eager attention with output_attentions=True: the probabilities P[b][h][i][j] are returned
 * (zeros above the diagonal), and O = P V. fp16 in/out, fp32 weights, D = 64. */
#include <math.h>

void eager_with_weights(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
			const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64], float attn_w[B][H][N][N])
{
#pragma fuse kernel(eager_with_weights) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++) t += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = j <= i ? t * 0.125f : -INFINITY;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) l += expf(s[j] - m);
				for (int j = 0; j < N; j++) attn_w[b][h][i][j] = expf(s[j] - m) / l;
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += attn_w[b][h][i][j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)a;
				}
			}
}
