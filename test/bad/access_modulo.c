/* a store at a subscript with % of a parameter: not affine */
void f(int N, int M, const int len[N], const int idx[N], const float x[N][M], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		float s = 0.0f;
		for (int j = 0; j < M; j++)
			s += x[i][j];
		y[(i + 1) % N] = s;
	}
}
