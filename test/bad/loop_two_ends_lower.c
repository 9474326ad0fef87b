/* a condition with two ends bounds the iterator from above in both */
void f(int N, int M, const float x[N][M], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		float s = 0.0f;
		for (int j = 0; j < M && j >= i; j++)
			s += x[i][j];
		y[i] = s;
	}
}
