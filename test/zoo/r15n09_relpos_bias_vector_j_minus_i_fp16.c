/* Relative-position bias as a learned vector per head indexed by j - i + N - 1 (Transformer-XL /
 * Swin-1D style, T5-like but unbucketed), bidirectional, fp16, D=64. */
#include <math.h>

void relpos_attn(int B, int H, int N, const float rel_bias[H][2 * N - 1],
		 const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64], const _Float16 v[B][H][N][64],
		 _Float16 o[B][H][N][64])
{
#pragma fuse kernel(relpos_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++) t += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = t * 0.125f + rel_bias[h][j - i + N - 1];
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) { s[j] = expf(s[j] - m); l += s[j]; }
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += s[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(a / l);
				}
			}
}
