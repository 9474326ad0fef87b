void f(int N, float x[N])
{
#pragma fuse kernel(k)
	for (int i = 0; i < N; i++)
		x[i] = 0.0f;
	for (int i = 0; i < N; i++)
		x[i] += 1.0f;
}
