/* c13_two_ends_window_prefix_fp16.c: sliding-window attention over a KV cache that holds P
 * earlier tokens: query i sees keys (P + i - W, P + i], the upper end written as two
 * conditions in the key loop (`j < P + N && j <= P + i`), the lower one a clamped local.
 * Style: fp16, D=64, online softmax written out (m, l rescaled per key). */
#include <math.h>
#define D 64

void window_prefix(int B, int N, int P, int W, float scale,
		   const _Float16 q[B][N][D], const _Float16 k[B][P + N][D],
		   const _Float16 v[B][P + N][D], _Float16 o[B][N][D])
{
#pragma fuse kernel(window_prefix) parallel(b, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N; i++) {
			int lo = P + i - W + 1;
			if (lo < 0)
				lo = 0;
			float m = -INFINITY, l = 0.0f;
			float acc[D];
			for (int d = 0; d < D; d++)
				acc[d] = 0.0f;
			for (int j = lo; j < P + N && j <= P + i; j++) {
				float x = 0.0f;
				for (int d = 0; d < D; d++)
					x += (float)q[b][i][d] * (float)k[b][j][d];
				x *= scale;
				const float mn = fmaxf(m, x);
				const float c = expf(m - mn), p = expf(x - mn);
				l = l * c + p;
				for (int d = 0; d < D; d++)
					acc[d] = acc[d] * c + p * (float)v[b][j][d];
				m = mn;
			}
			for (int d = 0; d < D; d++)
				o[b][i][d] = (_Float16)(acc[d] / l);
		}
}
