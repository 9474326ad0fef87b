/* Sliding window written with the start as `i < W ? 0 : i - W + 1` (the arms the other way
 * round), fp16, GQA by h / G, D = 128. */
#include <math.h>

void swa_lo(int B, int H, int G, int N, int W, const _Float16 q[B][H][N][128], const _Float16 k[B][H / G][N][128],
	    const _Float16 v[B][H / G][N][128], _Float16 o[B][H][N][128])
{
#pragma fuse kernel(swa_lo) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int lo = i < W ? 0 : i - W + 1;
				float m = -INFINITY, l = 0.0f, acc[128] = {0};
				for (int j = lo; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][h][i][d] * (float)k[b][h / G][j][d];
					m = fmaxf(m, s * 0.08838834764831845f);
				}
				for (int j = lo; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][h][i][d] * (float)k[b][h / G][j][d];
					float p = expf(s * 0.08838834764831845f - m);
					l += p;
					for (int d = 0; d < 128; d++) acc[d] += p * (float)v[b][h / G][j][d];
				}
				for (int d = 0; d < 128; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
