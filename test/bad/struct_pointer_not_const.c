/* a pointer to a struct that is not const: refused (the fields are values of the function) */
typedef struct { int rows, cols; } shape_t;
void f(shape_t *sh, const float *x, float *y)
{
#pragma fuse kernel(k) parallel(r)
	for (int r = 0; r < sh->rows; r++) {
		float s = 0.0f;
		for (int j = 0; j < sh->cols; j++) s += x[r * sh->cols + j];
		y[r] = s;
	}
}
