/* an array initialiser with values other than zero */
void f(int N, const float x[N][4], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		float w[4] = {1.0f, 0.5f, 0.25f, 0.125f};
		float s = 0.0f;
		for (int c = 0; c < 4; c++)
			s += w[c] * x[i][c];
		y[i] = s;
	}
}
