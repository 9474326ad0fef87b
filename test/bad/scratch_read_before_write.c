/* The score buffer is declared once per head and the row loop writes only s[0..i]
 * (causal), but the sum loop reads s[0..N): for j > i it sees what an earlier row left
 * there, so s is not private to the row and 'i' carries a dependence: still refused. */
#include <math.h>

void f(int H, int N, int D, const float q[H][N][D], const float k[H][N][D], float l_out[H][N])
{
#pragma fuse kernel(f) parallel(h, i) rolling(j)
	for (int h = 0; h < H; h++) {
		float s[N];
		for (int i = 0; i < N; i++) {
			float m = -INFINITY;
			for (int j = 0; j <= i; j++) {
				float dot = 0.0f;
				for (int d = 0; d < D; d++)
					dot += q[h][i][d] * k[h][j][d];
				s[j] = dot;
				m = fmaxf(m, dot);
			}
			float l = 0.0f;
			for (int j = 0; j < N; j++)
				l += expf(s[j] - m);
			l_out[h][i] = l;
		}
	}
}
