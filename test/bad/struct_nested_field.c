/* a struct parameter with a nested struct field: refused at the field */
struct dims { int rows, cols; };
struct cfg { struct dims d; float eps; };
void f(struct cfg c, const float *x, float *y)
{
#pragma fuse kernel(k) parallel(r)
	for (int r = 0; r < c.d.rows; r++) {
		float s = 0.0f;
		for (int j = 0; j < c.d.cols; j++) s += x[r * c.d.cols + j];
		y[r] = s + c.eps;
	}
}
