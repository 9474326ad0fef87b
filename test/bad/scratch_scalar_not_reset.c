/* The row sum l is declared once per head and never reset: every row adds to what the
 * previous rows summed, so l is not private to the row and 'i' carries a dependence:
 * still refused (setting l = 0 at the top of the row makes it private). */
#include <math.h>

void f(int H, int N, const float x[H][N][N], float y[H][N])
{
#pragma fuse kernel(f) parallel(h, i)
	for (int h = 0; h < H; h++) {
		float l = 0.0f;
		for (int i = 0; i < N; i++) {
			for (int j = 0; j < N; j++)
				l += expf(x[h][i][j]);
			y[h][i] = l;
		}
	}
}
