/* An early return is read before the first region only: after one, the kernels have run. */
void f(int N, const float *x, float *y)
{
	if (N <= 0)
		return;
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++)
		y[i] = 2.0f * x[i];
	if (N == 1)
		return;
}
