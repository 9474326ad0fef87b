/* a break's condition must stay true once true */
void f(int N, int M, const float x[N][M], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		float s = 0.0f;
		for (int j = 0; j < M; j++) {
			if (j == i)
				break;
			s += x[i][j];
		}
		y[i] = s;
	}
}
