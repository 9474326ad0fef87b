/* the start of j is read from an array: only an end may be (the domain from it is unbounded above) */
void f(int N, int M, const int len[N], const int idx[N], const float x[N][M], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		float s = 0.0f;
		for (int j = len[i]; j < M; j++)
			s += x[i][j];
		y[i] = s;
	}
}
