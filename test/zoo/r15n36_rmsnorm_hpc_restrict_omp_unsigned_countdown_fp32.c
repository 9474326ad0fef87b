/* RMSNorm by an HPC programmer: restrict pointers, OpenMP pragma, unsigned counters, the
 * reduction loop counting down, hidden size 8192 at run time. */
#include <math.h>
#include <stddef.h>

void rmsnorm(unsigned rows, unsigned hidden, float eps, const float *restrict x,
	     const float *restrict w, float *restrict y)
{
#pragma fuse kernel(rmsnorm) parallel(r)
#pragma omp parallel for schedule(static)
	for (unsigned r = 0; r < rows; r++) {
		const float *restrict xr = x + (size_t)r * hidden;
		float ss = 0.0f;
		for (unsigned c = hidden; c-- > 0;) ss += xr[c] * xr[c];
		const float scale = 1.0f / sqrtf(ss / (float)hidden + eps);
		float *restrict yr = y + (size_t)r * hidden;
		for (unsigned c = 0; c < hidden; c++) yr[c] = xr[c] * scale * w[c];
	}
}
