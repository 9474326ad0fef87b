/* HPC style RMSNorm: restrict, const, an OpenMP pragma above the fuse pragma,
 * unsigned counters, the column loop counting down. */
#include <math.h>

void rmsnorm_hpc(unsigned R, unsigned C, float eps, const float *restrict x,
		 const float *restrict w, float *restrict y)
{
#pragma omp parallel for
#pragma fuse kernel(rmsnorm_hpc) parallel(r)
	for (unsigned r = 0; r < R; r++) {
		float ss = 0.0f;
		for (unsigned c = C; c-- > 0;)
			ss += x[r * C + c] * x[r * C + c];
		const float inv = 1.0f / sqrtf(ss / (float)C + eps);
		for (unsigned c = 0; c < C; c++)
			y[r * C + c] = x[r * C + c] * inv * w[c];
	}
}
