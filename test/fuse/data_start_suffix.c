/* a loop whose start is read from an array (a suffix of each row from len[i]): it runs
 * from 0 over len[i] + j, to M - len[i] (no iteration where len[i] >= M) */
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
