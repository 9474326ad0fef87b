/* #pragma fuse at file scope: it precedes no for statement. */
#pragma fuse kernel(k) parallel(i)
void f(int N, float y[N])
{
	for (int i = 0; i < N; i++)
		y[i] = 0.0f;
}
