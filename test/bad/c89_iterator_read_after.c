/* a C89 iterator's value after its loop is not kept */
void f(int N, int M, const float x[N][M], float y[N])
{
	int i, j;
#pragma fuse kernel(k) parallel(i)
	for (i = 0; i < N; i++) {
		float s = 0.0f;
		for (j = 0; j < M; j++)
			s += x[i][j];
		y[i] = s / j;
	}
}
