/* An integer accumulator with float steps: C truncates each step, which no reordered sum
 * reproduces (an integer count with integer steps is fused: test/zoo/r13p43). */
void f(int N, int M, const float x[N][M], int y[N])
{
#pragma fuse kernel(k) parallel(i) rolling(j)
	for (int i = 0; i < N; i++) {
		int s = 0;
		for (int j = 0; j < M; j++)
			s += x[i][j];
		y[i] = s;
	}
}
