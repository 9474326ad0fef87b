/* a break whose condition may turn false again is refused */
void f(int N, int M, const int len[N], const int idx[N], const float x[N][M], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		float s = 0.0f;
		for (int j = 0; j < M; j++)
			{ if (x[i][j] < 0.0f) break; s += x[i][j]; }
		y[i] = s;
	}
}
