/* A one-hot correction written in place through a label read into a local (Liger's CE
 * gradient: X[i][y] -= 1 / n with y = Y[i]): a write through an index array is refused,
 * located at the store (not at y's declaration) and reported once. */
#include <math.h>
#include <stdint.h>
void ce_grad(int R, int C, const int64_t Y[R], float X[R][C])
{
#pragma fuse kernel(ce_grad) parallel(i)
	for (int i = 0; i < R; i++) {
		const int64_t y = Y[i];
		float m = -INFINITY, d = 0.0f;
		for (int c = 0; c < C; c++) m = fmaxf(m, X[i][c]);
		for (int c = 0; c < C; c++) d += expf(X[i][c] - m);
		for (int c = 0; c < C; c++) X[i][c] = expf(X[i][c] - m) / d;
		X[i][y] = X[i][y] - 1.0f;
	}
}
