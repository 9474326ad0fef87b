/* Incremental prefill into full-length buffers: only the new query rows i = P .. N-1 are
 * computed (the first P rows of o stay as they are), causal over keys 0 .. i. D = 64. */
#include <math.h>

void prefill_new_rows(int B, int H, int N, int P, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		      const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(prefill_new_rows) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = P; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					m = fmaxf(m, s * 0.125f);
				}
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					float p = expf(s * 0.125f - m);
					l += p;
					for (int d = 0; d < 64; d++) acc[d] += p * (float)v[b][h][j][d];
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
