/* Eager attention that returns the probabilities in fp16 (output_attentions=True under autocast)
 * and multiplies V by the stored fp16 probabilities, as `attn_weights.to(v.dtype) @ v` does. */
#include <math.h>

void attn_ret_probs(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		    const _Float16 v[B][H][N][64], _Float16 probs[B][H][N][N], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(attn_ret_probs) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N], m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float x = 0.0f;
					for (int d = 0; d < 64; d++) x += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = j <= i ? x * 0.125f : -INFINITY;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) l += expf(s[j] - m);
				for (int j = 0; j < N; j++) probs[b][h][i][j] = (_Float16)(expf(s[j] - m) / l);
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += (float)probs[b][h][i][j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)a;
				}
			}
}
