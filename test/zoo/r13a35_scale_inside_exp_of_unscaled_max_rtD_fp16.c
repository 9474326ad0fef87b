/* Softmax of scale * s computed as exp(scale * (s - max s)) (the max taken on unscaled
 * scores, correct for scale > 0), run-time D, causal, scores in s[N]. */
#include <math.h>

void attn_scale_exp(int B, int H, int N, int D, float scale, const _Float16 q[B][H][N][D],
		    const _Float16 k[B][H][N][D], const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(attn_scale_exp) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float t = 0.0f;
					for (int d = 0; d < D; d++) t += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = t;
					if (t > m) m = t;
				}
				float l = 0.0f;
				for (int j = 0; j <= i; j++) { s[j] = expf(scale * (s[j] - m)); l += s[j]; }
				for (int d = 0; d < D; d++) {
					float a = 0.0f;
					for (int j = 0; j <= i; j++) a += s[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(a / l);
				}
			}
}
