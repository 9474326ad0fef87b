/* The second region takes the name the first one got by default (f_k0). */
void f(int N, float x[N], float y[N])
{
#pragma fuse kernel parallel(i)
	for (int i = 0; i < N; i++)
		x[i] = 0.0f;
#pragma fuse kernel(f_k0) parallel(i)
	for (int i = 0; i < N; i++)
		y[i] = 1.0f;
}
