/* a loop macro's header is read as written: this one steps by a run-time stride */
#define FOR_STRIDED(i, n, s) for (int i = 0; i < (n); i += (s))
void f(int N, int M, int S, const float x[N][M], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		float s = 0.0f;
		FOR_STRIDED(j, M, S) s += x[i][j];
		y[i] = s;
	}
}
