/* pf_causal_ifelse_lit64.c: causal prefill, head dim 64 written as a literal everywhere
 * (no macro), fp16 storage.
 * Style: full j range, mask as if / else assigning the score, stored scores, max as a
 * ternary (s[j] > m ? s[j] : m), sum as l = l + e, j-outer P.V into acc[64], normalised
 * after. K&R braces, tabs. rolling(j) only, no tile. */
#include <math.h>

void attn_causal_64(int B, int H, int N, float scale,
		    const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		    const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(attn_causal_64) parallel(b, h, i)
#pragma fuse rolling(j)
	for (int b = 0; b < B; b++) {
		for (int h = 0; h < H; h++) {
			for (int i = 0; i < N; i++) {
				float s[N];
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < 64; d++) {
						dot += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					}
					if (j <= i) {
						s[j] = dot * scale;
					} else {
						s[j] = -INFINITY;
					}
				}
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					m = s[j] > m ? s[j] : m;
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) {
					l = l + expf(s[j] - m);
				}
				float acc[64];
				for (int d = 0; d < 64; d++) {
					acc[d] = 0.0f;
				}
				for (int j = 0; j < N; j++) {
					float p = expf(s[j] - m);
					for (int d = 0; d < 64; d++) {
						acc[d] = acc[d] + p * (float)v[b][h][j][d];
					}
				}
				for (int d = 0; d < 64; d++) {
					o[b][h][i][d] = (_Float16)(acc[d] / l);
				}
			}
		}
	}
}
