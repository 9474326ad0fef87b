/* Two regions with one kernel name. */
void f(int N, float x[N], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++)
		x[i] = 0.0f;
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++)
		y[i] = 1.0f;
}
