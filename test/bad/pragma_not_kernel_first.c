void f(int N, float x[N])
{
#pragma fuse parallel(i)
	for (int i = 0; i < N; i++)
		x[i] = 0.0f;
}
