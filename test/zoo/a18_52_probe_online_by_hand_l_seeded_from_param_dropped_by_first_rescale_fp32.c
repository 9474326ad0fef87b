/* Probe: an online softmax written by hand whose denominator starts at a parameter (a "softmax
 * plus l0" variant someone half-implemented). With m starting at -inf the first rescale multiplies
 * l0 by exp(-inf) = 0, so C drops l0 entirely (unless every score is -inf). */
#include <math.h>

void online_l0(int B, int H, int N, float l0, const float q[B][H][N][64], const float k[B][H][N][64],
	       const float v[B][H][N][64], float o[B][H][N][64])
{
#pragma fuse kernel(online_l0) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = l0, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					s *= 0.125f;
					const float mn = fmaxf(m, s);
					const float c = expf(m - mn);
					const float p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = acc[d] / l;
			}
}
