/* A function-like macro hides the operator of the expression it expands to. */
#define MUL(a, b) a * b
void f(int N, const float x[N], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++)
		y[i] = MUL(x[i], 2.0f);
}
