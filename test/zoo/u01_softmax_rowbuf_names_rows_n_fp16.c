/* u01: softmax(x / t) over the last dim with the row copied into a local buffer first, fp16,
 * x[rows][n]. Style: the sizes named `rows` and `n`, the temperature `t`, its inverse a
 * set-up scalar `k`, and an unused flag `threads`: the names a GPU launcher would pick for
 * its own locals (they must not shadow these). A VLA row buffer `float buf[n]`. */
#include <math.h>

void softmax_names(int rows, int n, int threads, float t, const _Float16 x[rows][n], _Float16 y[rows][n])
{
	const float k = 1.0f / t;
#pragma fuse kernel(softmax_names) parallel(r)
	for (int r = 0; r < rows; r++) {
		float buf[n];
		for (int i = 0; i < n; i++)
			buf[i] = (float)x[r][i] * k;
		float m = -INFINITY;
		for (int i = 0; i < n; i++)
			m = fmaxf(m, buf[i]);
		float s = 0.0f;
		for (int i = 0; i < n; i++)
			s += expf(buf[i] - m);
		for (int i = 0; i < n; i++)
			y[r][i] = (_Float16)(threads > 0 ? expf(buf[i] - m) / s : 0.0f);
	}
}
