/* DeepSpeed sparse attention reference: a per-head block layout [H][NB][NB] of uint8,
 * block size 32; a key is visible when layout[h][i/32][j/32] is set; diagonal always set. */
#include <math.h>
#include <stdint.h>

void bsparse(int H, int N, int NB, const uint8_t layout[H][NB][NB],
	     const _Float16 q[H][N][64], const _Float16 k[H][N][64], const _Float16 v[H][N][64],
	     _Float16 o[H][N][64])
{
#pragma fuse kernel(bsparse) parallel(h, i)
	for (int h = 0; h < H; h++)
		for (int i = 0; i < N; i++) {
			float m = -INFINITY, l = 0.0f, acc[64];
			for (int j = 0; j < N; j++) {
				if (!layout[h][i / 32][j / 32] && i / 32 != j / 32) continue;
				float t = 0.0f;
				for (int d = 0; d < 64; d++) t += (float)q[h][i][d] * (float)k[h][j][d];
				m = fmaxf(m, t * 0.125f);
			}
			for (int d = 0; d < 64; d++) acc[d] = 0.0f;
			for (int j = 0; j < N; j++) {
				if (!layout[h][i / 32][j / 32] && i / 32 != j / 32) continue;
				float t = 0.0f;
				for (int d = 0; d < 64; d++) t += (float)q[h][i][d] * (float)k[h][j][d];
				float p = expf(t * 0.125f - m);
				l += p;
				for (int d = 0; d < 64; d++) acc[d] += p * (float)v[h][j][d];
			}
			for (int d = 0; d < 64; d++) o[h][i][d] = (_Float16)(acc[d] / l);
		}
}
