/* A region's pragma with no for statement after it. */
void f(int N, float y[N])
{
#pragma fuse kernel(k) parallel(i)
}
