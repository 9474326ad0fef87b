/* Sliding window written from the newest key back, leaving the loop with `break` once a key falls
 * out of the window (i - j >= W); the scores recomputed in each of two passes. */
#include <math.h>

void swa_break_back(int B, int H, int N, int W, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		    const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(swa_break_back) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = i; j >= 0; j--) {
					if (i - j >= W) break;
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					m = fmaxf(m, s * 0.125f);
				}
				float l = 0.0f, acc[64] = {0};
				for (int j = i; j >= 0; j--) {
					if (i - j >= W) break;
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					const float p = expf(s * 0.125f - m);
					l += p;
					for (int d = 0; d < 64; d++) acc[d] += p * (float)v[b][h][j][d];
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
