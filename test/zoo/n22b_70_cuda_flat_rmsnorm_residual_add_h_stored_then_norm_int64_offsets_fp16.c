/* A CUDA programmer's pre-norm block reference: h = x + residual (stored, it is the next
 * residual), then RMSNorm(h) * w; flat fp16 pointers with int64_t row offsets. */
#include <math.h>
#include <stdint.h>

void add_rmsnorm(int64_t T, int64_t H, float eps, const _Float16 *x, const _Float16 *residual,
		 const _Float16 *w, _Float16 *h_out, _Float16 *y)
{
#pragma fuse kernel(add_rmsnorm) parallel(t)
	for (int64_t t = 0; t < T; t++) {
		const int64_t off = t * H;
		float ss = 0.0f;
		for (int64_t i = 0; i < H; i++) {
			const float h = (float)x[off + i] + (float)residual[off + i];
			h_out[off + i] = (_Float16)h;
			ss += h * h;
		}
		const float r = 1.0f / sqrtf(ss / (float)H + eps);
		for (int64_t i = 0; i < H; i++)
			y[off + i] = (_Float16)((float)h_out[off + i] * r * (float)w[i]);
	}
}
