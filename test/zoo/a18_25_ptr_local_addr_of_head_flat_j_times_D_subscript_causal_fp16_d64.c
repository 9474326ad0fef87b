/* A C programmer takes the head's K and V as flat pointers from the 4-D arrays
 * (const _Float16 *K = &k[b][h][0][0];) and indexes them by hand, K[j * 64 + d]; causal. */
#include <math.h>

void head_ptr_attn(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		   const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(head_ptr_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const _Float16 *K = &k[b][h][0][0];
				const _Float16 *V = &v[b][h][0][0];
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float x = 0.0f;
					for (int d = 0; d < 64; d++) x += (float)q[b][h][i][d] * (float)K[j * 64 + d];
					s[j] = x * 0.125f;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j <= i; j++) { s[j] = expf(s[j] - m); l += s[j]; }
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j <= i; j++) a += s[j] * (float)V[j * 64 + d];
					o[b][h][i][d] = (_Float16)(a / l);
				}
			}
}
