/* PROBE: fairseq's `q *= self.scaling` done in place on the caller's q (q is not const: an output too),
 * then the dots read the scaled q. The caller gets q back scaled. */
#include <math.h>
void inplace_q(int B, int H, int N, float q[B][H][N][64], const float k[B][H][N][64], const float v[B][H][N][64],
	       float o[B][H][N][64])
{
#pragma fuse kernel(inplace_q) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				for (int d = 0; d < 64; d++) q[b][h][i][d] *= 0.125f;
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++) t += q[b][h][i][d] * k[b][h][j][d];
					s[j] = t;
					m = fmaxf(m, t);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) { s[j] = expf(s[j] - m); l += s[j]; }
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += s[j] * v[b][h][j][d];
					o[b][h][i][d] = acc / l;
				}
			}
}
