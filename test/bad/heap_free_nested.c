/* a scratch array freed inside a block of its own, not the block that allocates it */
#include <stdlib.h>

void f(int R, int C, const float x[R][C], float y[R])
{
#pragma fuse kernel(k) parallel(r)
	for (int r = 0; r < R; r++) {
		float *e = malloc(C * sizeof(float));
		float s = 0.0f;
		for (int c = 0; c < C; c++) {
			e[c] = x[r][c] * x[r][c];
			s += e[c];
		}
		y[r] = s;
		if (s > 0.0f) {
			free(e);
		}
	}
}
