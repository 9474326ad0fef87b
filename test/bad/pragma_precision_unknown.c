void f(int N, float x[N])
{
#pragma fuse kernel(k) precision(bf16)
	for (int i = 0; i < N; i++)
		x[i] = 0.0f;
}
