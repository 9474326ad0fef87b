/* A global read inside a region: pass it as a parameter. */
float scale = 2.0f;
void f(int N, const float x[N], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++)
		y[i] = scale * x[i];
}
