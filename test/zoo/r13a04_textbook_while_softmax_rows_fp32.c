/* A textbook student's softmax: while loops, index variables declared at the top. */
#include <math.h>

void softmax_while(int R, int C, const float x[R][C], float y[R][C])
{
	int r, c;
	float m, s;
#pragma fuse kernel(softmax_while) parallel(r)
	for (r = 0; r < R; r++) {
		m = x[r][0];
		c = 1;
		while (c < C) {
			if (x[r][c] > m)
				m = x[r][c];
			c++;
		}
		s = 0.0f;
		c = 0;
		while (c < C) {
			s = s + expf(x[r][c] - m);
			c = c + 1;
		}
		c = 0;
		while (c < C) {
			y[r][c] = expf(x[r][c] - m) / s;
			c++;
		}
	}
}
