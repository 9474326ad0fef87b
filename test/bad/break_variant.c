/* a break's condition may not read what the loop changes */
void f(int N, int M, const float x[N][M], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		float s = 0.0f;
		int lim = i;
		for (int j = 0; j < M; j++) {
			if (j > lim)
				break;
			s += x[i][j];
			lim = lim - 1;
		}
		y[i] = s;
	}
}
