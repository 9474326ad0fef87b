/* A pointer is read through subscripts only. */
void f(int N, int D, const float *x, float *y)
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		const float *row = x + i * D;
		float s = 0.0f;
		for (int d = 0; d < D; d++)
			s += *row;
		y[i] = s;
	}
}
