/* a C89 iterator may not count a loop inside a loop it counts */
void f(int N, int M, const float x[N][M], float y[N])
{
	int i;
#pragma fuse kernel(k) parallel(i)
	for (i = 0; i < N; i++) {
		float s = 0.0f;
		for (i = 0; i < M; i++)
			s += x[0][i];
		y[0] = s;
	}
}
