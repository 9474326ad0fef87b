/* a loop counting down runs upward only when its iterations do not depend on its order */
void f(int N, int M, const int len[N], const int idx[N], const float x[N][M], float y[N][M])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		float s = 0.0f;
		for (int j = M - 1; j >= 0; j--) {
			s += x[i][j];
			y[i][j] = s;
		}
	}
}
