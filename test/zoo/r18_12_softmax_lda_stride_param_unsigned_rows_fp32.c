/* BLAS-minded softmax over the rows of a column block of a larger matrix: leading dimension lda
 * (>= n) passed separately, unsigned counters, in place on the matrix (LAPACK style). fp32. */
#include <math.h>

void softmax_lda(unsigned m, unsigned n, unsigned lda, float *a)
{
#pragma fuse kernel(softmax_lda) parallel(i)
	for (unsigned i = 0; i < m; i++) {
		float mx = -INFINITY;
		for (unsigned j = 0; j < n; j++) mx = fmaxf(mx, a[i * lda + j]);
		float s = 0.0f;
		for (unsigned j = 0; j < n; j++) {
			a[i * lda + j] = expf(a[i * lda + j] - mx);
			s += a[i * lda + j];
		}
		const float r = 1.0f / s;
		for (unsigned j = 0; j < n; j++) a[i * lda + j] *= r;
	}
}
