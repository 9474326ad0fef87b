/* PROBE (a real bug people write): max and normaliser over all N keys, the P.V only over j <= i. Legal C;
 * three reductions over different ranges of the same key loop. */
#include <math.h>
void mixed_range(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64], const float v[B][H][N][64],
		 float o[B][H][N][64])
{
#pragma fuse kernel(mixed_range) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++) t += q[b][h][i][d] * k[b][h][j][d];
					s[j] = t * 0.125f;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) l += expf(s[j] - m);
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j <= i; j++) acc += expf(s[j] - m) * v[b][h][j][d];
					o[b][h][i][d] = acc / l;
				}
			}
}
