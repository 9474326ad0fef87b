/* A CUDA engineer's host reference that reuses their device code's spelling: rsqrtf() defined as a
 * helper for the CPU build, __half data as _Float16, LayerNorm two-pass with gamma/beta. */
#include <math.h>

static inline float rsqrtf_host(float x) { return 1.0f / sqrtf(x); }
#define rsqrtf rsqrtf_host

void ln_ref(int rows, int cols, float eps, const _Float16 *__restrict in, const _Float16 *__restrict gamma,
	    const _Float16 *__restrict beta, _Float16 *__restrict out)
{
#pragma fuse kernel(ln_ref) parallel(row)
	for (int row = 0; row < rows; ++row) {
		const _Float16 *x = in + (long)row * cols;
		_Float16 *y = out + (long)row * cols;
		float mean = 0.f;
		for (int i = 0; i < cols; ++i)
			mean += (float)x[i];
		mean /= cols;
		float var = 0.f;
		for (int i = 0; i < cols; ++i)
			var += ((float)x[i] - mean) * ((float)x[i] - mean);
		var /= cols;
		const float rs = rsqrtf(var + eps);
		for (int i = 0; i < cols; ++i)
			y[i] = (_Float16)(((float)x[i] - mean) * rs * (float)gamma[i] + (float)beta[i]);
	}
}
