/* a region writes a field of a by-value struct parameter: refused at the write */
struct cfg { int rows, cols; float scale; };
void f(struct cfg c, const float *x, float *y)
{
#pragma fuse kernel(k) parallel(r)
	for (int r = 0; r < c.rows; r++) {
		float s = 0.0f;
		for (int j = 0; j < c.cols; j++) s += x[r * c.cols + j];
		c.scale = s;
		y[r] = s * c.scale;
	}
}
