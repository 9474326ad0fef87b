/* malloc of doubles into a float pointer: the count is not the array's */
#include <stdlib.h>

void f(int R, int C, const float x[R][C], float y[R])
{
#pragma fuse kernel(k) parallel(r)
	for (int r = 0; r < R; r++) {
		float *e = malloc(C * sizeof(double));
		float s = 0.0f;
		for (int c = 0; c < C; c++) {
			e[c] = x[r][c];
			s += e[c];
		}
		y[r] = s;
		free(e);
	}
}
