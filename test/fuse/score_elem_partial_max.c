/* The score is accumulated in its element, but the max is taken inside the d loop, over
 * the partial sums: the element is read while it is still being accumulated. s[j] += at
 * the step's own element is a map of that element (not a reduction over 'j'), and the max
 * over every partial sum is one reduction of the pass: fused (the GPU falls back, the
 * warning says so). Was refused as "written at a different element on every step". */
#include <math.h>

void f(int H, int N, int D, const float q[H][N][D], const float k[H][N][D], float m_out[H][N])
{
#pragma fuse kernel(f) parallel(h, i) rolling(j)
	for (int h = 0; h < H; h++)
		for (int i = 0; i < N; i++) {
			float s[N];
			float m = -INFINITY;
			for (int j = 0; j < N; j++) {
				s[j] = 0.0f;
				for (int d = 0; d < D; d++) {
					s[j] += q[h][i][d] * k[h][j][d];
					m = fmaxf(m, s[j]);
				}
			}
			m_out[h][i] = m;
		}
}
