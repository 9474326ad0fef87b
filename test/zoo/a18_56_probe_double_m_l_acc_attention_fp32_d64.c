/* Probe: a numerically careful author accumulates max, denominator and output in double; fp32
 * storage, causal. */
#include <math.h>

void attn_double_acc(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64], const float v[B][H][N][64],
		     float o[B][H][N][64])
{
#pragma fuse kernel(attn_double_acc) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				double m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					double s = 0.0;
					for (int d = 0; d < 64; d++) s += (double)q[b][h][i][d] * k[b][h][j][d];
					m = fmax(m, s * 0.125);
				}
				double l = 0.0, acc[64] = {0};
				for (int j = 0; j <= i; j++) {
					double s = 0.0;
					for (int d = 0; d < 64; d++) s += (double)q[b][h][i][d] * k[b][h][j][d];
					const double p = exp(s * 0.125 - m);
					l += p;
					for (int d = 0; d < 64; d++) acc[d] += p * v[b][h][j][d];
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (float)(acc[d] / l);
			}
}
