/* Row-wise softmax written with the helper macros of a C code base: MAX as a ternary
 * macro, MIN without parentheses, SQUARE, a nested macro (MAX3 through MAX), arguments that
 * are expressions (a MIN-clamped square) and an object-like operator macro.
 * Style: fp32, `#define MAX(a, b) ((a) > (b) ? (a) : (b))`, temperature divided in, the
 * exponential recomputed in the write pass; a second region sums an energy. rolling(c). */
#include <math.h>

#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) (a < b ? a : b)
#define SQUARE(x) ((x) * (x))
#define MAX3(a, b, c) MAX(MAX(a, b), c)
#define SCALE(x, t) x / t
#define TIMES *

void softmax_macros(int R, int C, float temp, const float x[R][C], float y[R][C], float energy[R])
{
#pragma fuse kernel(softmax_macros) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			m = MAX(m, SCALE(x[r][c], temp));
		float sum = 0.0f;
		for (int c = 0; c < C; c++)
			sum += expf(SCALE(x[r][c], temp) - m);
		for (int c = 0; c < C; c++)
			y[r][c] = expf(x[r][c] / temp - m) / sum;
	}
#pragma fuse kernel(energy_macros) parallel(r)
	for (int r = 0; r < R; r++) {
		float e = 0.0f;
		for (int c = 0; c < C; c++)
			e += MIN(SQUARE(x[r][c] - 1.0f), 4.0f) TIMES MAX3(x[r][c], 0.5f, -x[r][c]);
		energy[r] = e;
	}
}
