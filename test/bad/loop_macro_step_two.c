/* a loop macro's header is read as written: this one steps by two */
#define FOR_EVEN(i, n) for (int i = 0; i < (n); i += 2)
void f(int N, int M, const float x[N][M], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		float s = 0.0f;
		FOR_EVEN(j, M) s += x[i][j];
		y[i] = s;
	}
}
