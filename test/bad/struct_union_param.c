/* a union parameter: refused */
union cfg { int rows; float eps; };
void f(union cfg c, const float *x, float *y)
{
#pragma fuse kernel(k) parallel(r)
	for (int r = 0; r < c.rows; r++)
		y[r] = x[r];
}
