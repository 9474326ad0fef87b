/* A product reduction: not among the reducers fusecc fuses (sum, max, min). */
void f(int N, int M, const float x[N][M], float y[N])
{
#pragma fuse kernel(k) parallel(i) rolling(j)
	for (int i = 0; i < N; i++) {
		float p = 1.0f;
		for (int j = 0; j < M; j++)
			p *= x[i][j];
		y[i] = p;
	}
}
