/* a split-k chunk count of 0 */
void f(int N, int M, const float x[N][M], float y[N])
{
#pragma fuse kernel(k) parallel(i) splitk(j:0)
	for (int i = 0; i < N; i++) {
		float s = 0.0f;
		for (int j = 0; j < M; j++)
			s += x[i][j];
		y[i] = s;
	}
}
