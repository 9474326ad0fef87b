/* a non-affine start read by three loops over 'j': one error, not three */
#include <math.h>

void f(int N, int C, const float x[N][N], float y[N])
{
#pragma fuse kernel(k) parallel(i) rolling(j)
	for (int i = 0; i < N; i++) {
		const int j0 = i * i % C;
		float m = -INFINITY, s = 0.0f, a = 0.0f;
		for (int j = j0; j <= i; j++)
			m = fmaxf(m, x[i][j]);
		for (int j = j0; j <= i; j++)
			s += expf(x[i][j] - m);
		for (int j = j0; j <= i; j++)
			a += expf(x[i][j] - m) * x[i][j];
		y[i] = a / s;
	}
}
