void f(int N, float x[N])
{
#pragma fuse kernel(k) precision(tf32)
#pragma fuse precision(fp32)
	for (int i = 0; i < N; i++)
		x[i] = 0.0f;
}
