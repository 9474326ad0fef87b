/* Probe: dilated bidirectional attention keeping keys with (j - i) % r == 0 (C's remainder keeps the
 * sign of j - i, zero test unaffected) and additionally only keys at (j - i) % (2 * r) > -r,
 * which for negative j - i depends on truncation (floor-mod would be in [0, 2r)). */
#include <math.h>

void dilated_mod(int B, int H, int N, int r, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		 const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(dilated_mod) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					if ((j - i) % r != 0 || (j - i) % (2 * r) <= -r) continue;
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= 0.125f;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
