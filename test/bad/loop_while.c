/* a while loop that steps its iterator first, not last, is refused */
void f(int N, int M, const int len[N], const int idx[N], const float x[N][M], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		float s = 0.0f;
		int j = 0; while (j < M)
			{ j += 1; s += x[i][j - 1]; }
		y[i] = s;
	}
}
