/* row_dot_norm_two_vectors_double_fp32: cosine similarity of two long vectors as a
 * numerics person writes it: the dot product and both squared norms accumulated in double
 * in one loop over the elements, the quotient stored after it.
 * Style: a flat loop over n with `parallel(i)` (no rows at all), double sums, *out. */
#include <math.h>

void cosine(long n, const float *x, const float *y, float *out)
{
	double xy = 0.0, xx = 0.0, yy = 0.0;
#pragma fuse kernel(cosine) parallel(i)
	for (long i = 0; i < n; i++) {
		xy += (double)x[i] * y[i];
		xx += (double)x[i] * x[i];
		yy += (double)y[i] * y[i];
	}
	*out = (float)(xy / (sqrt(xx) * sqrt(yy) + 1e-12));
}
