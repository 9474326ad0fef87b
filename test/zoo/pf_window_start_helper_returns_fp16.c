/* Sliding-window prefill whose first key comes from a helper with early returns
 * (`if (i < W) return 0; return i - W + 1;`), used as the loops' start: a piecewise-affine
 * bound. Fused C exact; the GPU keeps one thread per row (warning) until the tiles take a
 * bound that is not monotone over a CTA's rows; fp16 D64. */
#include <math.h>
#define D 64
static int window_start(int i, int W)
{
	if (i < W)
		return 0;
	return i - W + 1;
}
void swa(int BH, int N, int W, const _Float16 q[BH][N][D], const _Float16 k[BH][N][D], const _Float16 v[BH][N][D], _Float16 o[BH][N][D])
{
#pragma fuse kernel(swa) parallel(bh, i) rolling(j)
	for (int bh = 0; bh < BH; bh++)
		for (int i = 0; i < N; i++) {
			const int lo = window_start(i, W);
			float s[N];
			float m = -INFINITY;
			for (int j = lo; j <= i; j++) {
				float x = 0.0f;
				for (int d = 0; d < D; d++)
					x += (float)q[bh][i][d] * (float)k[bh][j][d];
				s[j] = x * 0.125f;
				m = fmaxf(m, s[j]);
			}
			float l = 0.0f;
			for (int j = lo; j <= i; j++)
				l += expf(s[j] - m);
			for (int d = 0; d < D; d++) {
				float a = 0.0f;
				for (int j = lo; j <= i; j++)
					a += expf(s[j] - m) * (float)v[bh][j][d];
				o[bh][i][d] = (_Float16)(a / l);
			}
		}
}
