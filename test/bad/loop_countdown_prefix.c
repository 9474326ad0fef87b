/* the count-down idiom is 'for (v = hi; v-- > lo;)': a prefix step is refused */
void f(int N, int M, const float x[N][M], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		float s = 0.0f;
		for (int j = M; --j >= 0;)
			s += x[i][j];
		y[i] = s;
	}
}
