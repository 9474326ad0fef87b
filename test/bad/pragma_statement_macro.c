/* a macro after the pragma must expand to a for statement */
#define CLEAR(y, n) do { for (int t_ = 0; t_ < (n); t_++) (y)[t_] = 0.0f; } while (0)
void f(int N, float y[N])
{
#pragma fuse kernel(k)
	CLEAR(y, N);
}
