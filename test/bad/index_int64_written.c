/* an int64 array the region writes (an argmax): refused, outputs are float arrays */
#include <math.h>
#include <stdint.h>

void f(int N, int M, const float x[N][M], int64_t best[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		float m = -1e30f;
		for (int j = 0; j < M; j++)
			m = fmaxf(m, x[i][j]);
		best[i] = 0;
	}
}
