/* A pointer is read through subscripts, `*p` or `*(p + e)`; other pointer arithmetic in a
 * dereference is refused. */
void f(int N, int D, const float *x, float *y)
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		const float *end = x + (i + 1) * D;
		float s = 0.0f;
		for (int d = 1; d <= D; d++)
			s += *(end - d);
		y[i] = s;
	}
}
