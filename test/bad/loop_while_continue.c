/* a while loop that steps its iterator last: a continue would skip the step (C loops
 * forever where a for loop would not) */
void f(int N, int M, const float x[N][M], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		float s = 0.0f;
		int j = 0;
		while (j < M) {
			if (x[i][j] < 0.0f)
				continue;
			s += x[i][j];
			j++;
		}
		y[i] = s;
	}
}
