/* a bool field read as a value: integer scalars are sizes; unread, it would be kept */
#include <stdbool.h>
struct cfg { int rows, cols; bool scale_rows; };
void f(struct cfg c, const float *x, float *y)
{
#pragma fuse kernel(k) parallel(r)
	for (int r = 0; r < c.rows; r++) {
		float s = 0.0f;
		for (int j = 0; j < c.cols; j++) s += x[r * c.cols + j];
		y[r] = c.scale_rows ? s / c.cols : s;
	}
}
