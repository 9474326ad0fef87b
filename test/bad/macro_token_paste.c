/* An operator built by token pasting in a macro: fusecc does not expand '##'. */
#define CAT(a, b) a##b
void f(int N, int M, const float x[N][M], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		float s = 0.0f;
		for (int j = 0; j < M; j++)
			s CAT(+, =) x[i][j];
		y[i] = s;
	}
}
