/* A C99 API that passes shapes in a params struct by pointer to const and declares the
 * tensors as variably modified arrays over its fields (`x[p->rows][p->cols]`), as a
 * numerics library written against C99 does; the temperature is a field too. */
#include <math.h>

typedef struct softmax_params {
	int rows;
	int cols;
	float inv_temp;
} softmax_params;

void softmax_temp(const softmax_params *p, const float x[p->rows][p->cols], float y[p->rows][p->cols])
{
#pragma fuse kernel(softmax_temp) parallel(r)
	for (int r = 0; r < p->rows; r++) {
		float m = -INFINITY;
		for (int c = 0; c < p->cols; c++)
			m = fmaxf(m, x[r][c] * p->inv_temp);
		float s = 0.0f;
		for (int c = 0; c < p->cols; c++)
			s += expf(x[r][c] * p->inv_temp - m);
		for (int c = 0; c < p->cols; c++)
			y[r][c] = expf(x[r][c] * p->inv_temp - m) / s;
	}
}
