/* A region must be a top-level for of the function body, not nested in another loop. */
void f(int N, float y[N][N])
{
	for (int r = 0; r < N; r++) {
#pragma fuse kernel(k) parallel(i)
		for (int i = 0; i < N; i++)
			y[r][i] = 0.0f;
	}
}
