void f(int N, float **x)
{
#pragma fuse kernel(k)
	for (int i = 0; i < N; i++)
		x[i][0] = 0.0f;
}
