#define TIMES *
void f(int N, const float x[N], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++)
		y[i] = x[i] TIMES 2.0f;
}
