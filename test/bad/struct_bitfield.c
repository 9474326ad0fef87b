/* a struct parameter with a bitfield: refused at the field */
struct cfg { int rows; int cols; unsigned causal : 1; };
void f(struct cfg c, const float *x, float *y)
{
#pragma fuse kernel(k) parallel(r)
	for (int r = 0; r < c.rows; r++) {
		float s = 0.0f;
		for (int j = 0; j < c.cols; j++) s += x[r * c.cols + j];
		y[r] = s;
	}
}
