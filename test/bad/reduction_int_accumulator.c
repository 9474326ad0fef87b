/* An integer accumulator: fusecc accumulates in float or double. */
void f(int N, int M, const int x[N][M], int y[N])
{
#pragma fuse kernel(k) parallel(i) rolling(j)
	for (int i = 0; i < N; i++) {
		int s = 0;
		for (int j = 0; j < M; j++)
			s += x[i][j];
		y[i] = s;
	}
}
