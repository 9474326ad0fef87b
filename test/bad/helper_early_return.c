/* A void helper that returns before the end of its body: fusecc inlines helpers whose body runs to its end. */
#include <math.h>
static void softmax(float *x, int n)
{
	if (n == 0)
		return;
	float m = x[0];
	for (int i = 1; i < n; i++)
		m = fmaxf(m, x[i]);
	float s = 0.0f;
	for (int i = 0; i < n; i++) {
		x[i] = expf(x[i] - m);
		s += x[i];
	}
	for (int i = 0; i < n; i++)
		x[i] /= s;
}

void rows(int R, int C, float x[R][C])
{
#pragma fuse kernel(k) parallel(r)
	for (int r = 0; r < R; r++)
		softmax(x[r], C);
}
