/* A function with regions must return void. */
float f(int N, float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++)
		y[i] = 0.0f;
}
