/* continue only directly in a loop's body */
void f(int N, int M, const float x[N][M], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		float s = 0.0f;
		for (int j = 0; j < M; j++) {
			if (x[i][j] > 0.0f) {
				if (j > i)
					continue;
				s += x[i][j];
			}
		}
		y[i] = s;
	}
}
