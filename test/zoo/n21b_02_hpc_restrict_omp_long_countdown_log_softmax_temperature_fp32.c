/* HPC style log_softmax(x / T): restrict pointers, long indices, OpenMP pragma, the max loop
 * counting down, the temperature multiplied as a reciprocal computed before the region. */
#include <math.h>

void log_softmax_t(long rows, long cols, float T, const float *restrict x, float *restrict y)
{
	const float it = 1.0f / T;
#pragma fuse kernel(log_softmax_t) parallel(r)
#pragma omp parallel for schedule(static)
	for (long r = 0; r < rows; ++r) {
		const float *restrict xr = x + r * cols;
		float *restrict yr = y + r * cols;
		float mx = -INFINITY;
		for (long c = cols - 1; c >= 0; --c) {
			const float v = xr[c] * it;
			if (v > mx) mx = v;
		}
		float acc = 0.0f;
#pragma omp simd reduction(+:acc)
		for (long c = 0; c < cols; ++c) acc += expf(xr[c] * it - mx);
		const float lse = mx + logf(acc);
		for (long c = 0; c < cols; ++c) yr[c] = xr[c] * it - lse;
	}
}
