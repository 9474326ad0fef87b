/* An HPC programmer's LayerNorm: OpenMP pragma on the row loop, long indices, while loops, mean and
 * rstd saved for backward, gamma/beta; two-pass variance with a local d. */
#include <math.h>

void ln_hpc(long R, long C, const float *restrict x, const float *restrict gamma, const float *restrict beta,
	    float *restrict y, float *restrict mean_out, float *restrict rstd_out)
{
#pragma fuse kernel(ln_hpc) parallel(r)
#pragma omp parallel for
	for (long r = 0; r < R; r++) {
		const float *xr = x + r * C;
		float s = 0.0f;
		long c = 0;
		while (c < C) { s += xr[c]; c++; }
		const float mu = s / (float)C;
		float v = 0.0f;
		c = 0;
		while (c < C) { const float d = xr[c] - mu; v += d * d; c++; }
		const float rs = 1.0f / sqrtf(v / (float)C + 1e-5f);
		c = 0;
		while (c < C) { y[r * C + c] = (xr[c] - mu) * rs * gamma[c] + beta[c]; c++; }
		mean_out[r] = mu;
		rstd_out[r] = rs;
	}
}
