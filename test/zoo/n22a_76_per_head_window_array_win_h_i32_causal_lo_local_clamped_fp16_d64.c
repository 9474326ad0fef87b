/* Mixture-of-attention-spans research port: each head has its own sliding window win[h] (int32),
 * causal; the window start read from the array into a clamped local per row. */
#include <math.h>
#include <stdint.h>

void per_head_window(int B, int H, int N, const int32_t win[H], const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		     const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(per_head_window) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				int lo = i - win[h] + 1;
				if (lo < 0) lo = 0;
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int j = lo; j <= i; j++) {
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
