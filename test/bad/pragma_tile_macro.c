/* macros are not expanded in #pragma fuse */
void f(int N, int M, const float x[N][M], float y[N])
{
#define T 64
#pragma fuse kernel(k) parallel(i) tile(i:T)
	for (int i = 0; i < N; i++) {
		float s = 0.0f;
		for (int j = 0; j < M; j++)
			s += x[i][j];
		y[i] = s;
	}
}
