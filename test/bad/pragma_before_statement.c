void f(int N, float x[N])
{
#pragma fuse kernel(k)
	x[0] = 0.0f;
}
