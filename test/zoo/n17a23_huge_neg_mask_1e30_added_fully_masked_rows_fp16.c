/* HF-style additive mask with a huge negative (-1e30f) added per key from a uint8 keep mask; rows
 * where every key is masked give a uniform average in C (all scores equally -1e30). D = 64. */
#include <math.h>
#include <stdint.h>

void masked_attn_1e30(int B, int H, int N, const uint8_t keep[B][N], const _Float16 q[B][H][N][64],
		      const _Float16 k[B][H][N][64], const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(masked_attn_1e30) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++) t += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = t * 0.125f + (keep[b][j] ? 0.0f : -1e30f);
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
