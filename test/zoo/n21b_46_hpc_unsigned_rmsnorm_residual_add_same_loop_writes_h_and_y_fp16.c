/* HPC style pre-norm step: h = x + r and the sum of squares in the same loop (h written to
 * the residual stream), then y = h * rms * w; unsigned counters, restrict, const. */
#include <math.h>

void add_rmsnorm(unsigned T, unsigned C, float eps, const _Float16 *restrict x, const _Float16 *restrict r,
		 const _Float16 *restrict w, _Float16 *restrict h, _Float16 *restrict y)
{
#pragma fuse kernel(add_rmsnorm) parallel(t)
	for (unsigned t = 0; t < T; ++t) {
		float ss = 0.0f;
		for (unsigned c = 0; c < C; ++c) {
			const float v = (float)x[t * C + c] + (float)r[t * C + c];
			h[t * C + c] = (_Float16)v;
			ss += v * v;
		}
		const float inv = 1.0f / sqrtf(ss / (float)C + eps);
		for (unsigned c = 0; c < C; ++c) y[t * C + c] = (_Float16)((float)h[t * C + c] * inv * (float)w[c]);
	}
}
