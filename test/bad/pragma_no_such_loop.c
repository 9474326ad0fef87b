void f(int N, float x[N])
{
#pragma fuse kernel(k) parallel(i) tile(j:64)
	for (int i = 0; i < N; i++)
		x[i] = 0.0f;
}
