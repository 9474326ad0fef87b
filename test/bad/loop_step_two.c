/* loops must step by one or by a constant: this one steps by a run-time S */
void f(int N, int M, int S, const int len[N], const int idx[N], const float x[N][M], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		float s = 0.0f;
		for (int j = 0; j < M; j += S)
			s += x[i][j];
		y[i] = s;
	}
}
