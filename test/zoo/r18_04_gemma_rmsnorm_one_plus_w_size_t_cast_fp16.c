/* Gemma's RMSNorm: x * rsqrt(mean(x^2) + eps) * (1 + w), computed in float and cast back,
 * size_t loop counters, eps a float parameter. fp16. */
#include <math.h>
#include <stddef.h>

void gemma_rmsnorm(size_t T, size_t H, float eps, const _Float16 x[T][H], const _Float16 w[H], _Float16 y[T][H])
{
#pragma fuse kernel(gemma_rmsnorm) parallel(t)
	for (size_t t = 0; t < T; ++t) {
		float ss = 0.0f;
		for (size_t j = 0; j < H; ++j) {
			const float v = (float)x[t][j];
			ss += v * v;
		}
		const float inv = 1.0f / sqrtf(ss / (float)H + eps);
		for (size_t j = 0; j < H; ++j) y[t][j] = (_Float16)((float)x[t][j] * inv * (1.0f + (float)w[j]));
	}
}
