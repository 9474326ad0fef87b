/* i carries a dependence (y[i] reads y[i - 1]): it cannot become the grid. */
void f(int N, const float x[N], float y[N])
{
#pragma fuse kernel(f) parallel(i)
	for (int i = 1; i < N; i++)
		y[i] = y[i - 1] + x[i];
}
