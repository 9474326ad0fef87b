/* HPC-style RMSNorm: OpenMP over rows, long indices, the reduction loop counting down (an old
 * habit from Fortran-to-C ports), restrict-qualified flat pointers. */
#include <math.h>

void rmsnorm_omp(long n_rows, long n_cols, float eps, const float *restrict in, const float *restrict gamma,
		 float *restrict out)
{
#pragma fuse kernel(rmsnorm_omp) parallel(r)
#pragma omp parallel for schedule(static)
	for (long r = 0; r < n_rows; r++) {
		const float *restrict xr = in + r * n_cols;
		float *restrict yr = out + r * n_cols;
		float acc = 0.0f;
		for (long c = n_cols - 1; c >= 0; c--)
			acc += xr[c] * xr[c];
		const float inv = 1.0f / sqrtf(acc / (float)n_cols + eps);
		for (long c = 0; c < n_cols; c++)
			yr[c] = xr[c] * inv * gamma[c];
	}
}
