/* the end of j is read from an array that the region also stores */
void f(int N, int M, const int len[N], int idx[N], const float x[N][M], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		float s = 0.0f;
		for (int j = 0; j < idx[i] + 1; j++)
			s += x[i][0];
		y[i] = s;
		idx[i] = 0;
	}
}
