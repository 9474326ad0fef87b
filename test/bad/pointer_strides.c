/* A flat pointer read with strides that do not nest (N and M) and an offset, N * M, that
 * is a multiple of neither: no array shape, nor strided view, fits. */
void f(int N, int M, const float *x, float *y)
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		float s = 0.0f;
		for (int j = 0; j < M; j++)
			s += x[i * N + j * M + N * M];
		y[i] = s;
	}
}
