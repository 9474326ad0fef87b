void f(int N, float x[N])
{
#pragma fuse kernel(k)
	for (int i = 1; i < N; i *= 2)
		x[i] = 0.0f;
}
