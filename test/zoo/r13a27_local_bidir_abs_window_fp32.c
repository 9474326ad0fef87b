/* Longformer-ish local attention: |i - j| <= W written with abs(), fp32, D 64. */
#include <math.h>
#include <stdlib.h>

void local_abs(int B, int N, int W, const float q[B][N][64], const float k[B][N][64],
	       const float v[B][N][64], float o[B][N][64])
{
#pragma fuse kernel(local_abs) parallel(b, i)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N; i++) {
			float s[N];
			float m = -INFINITY;
			for (int j = 0; j < N; j++) {
				float t = 0.0f;
				for (int d = 0; d < 64; d++) t += q[b][i][d] * k[b][j][d];
				s[j] = abs(i - j) <= W ? t * 0.125f : -INFINITY;
				m = fmaxf(m, s[j]);
			}
			float l = 0.0f;
			for (int j = 0; j < N; j++) l += expf(s[j] - m);
			for (int d = 0; d < 64; d++) {
				float a = 0.0f;
				for (int j = 0; j < N; j++) a += expf(s[j] - m) * v[b][j][d];
				o[b][i][d] = a / l;
			}
		}
}
