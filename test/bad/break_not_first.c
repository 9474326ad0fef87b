/* break only at the top of a loop's body */
void f(int N, int M, const float x[N][M], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		float s = 0.0f;
		for (int j = 0; j < M; j++) {
			s += x[i][j];
			if (j >= i)
				break;
		}
		y[i] = s;
	}
}
