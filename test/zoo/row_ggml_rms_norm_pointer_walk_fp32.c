/* row_ggml_rms_norm_pointer_walk_fp32.c: ggml's rms_norm (+ the weight multiply it is fused
 * with in llama.cpp graphs) as a ggml contributor writes the CPU loop: a pointer to the row,
 * `const float *x = src + i01 * ne00`, walked with `x++` while summing; the second pass walks
 * three pointers (row, weight, destination) with `*y = ...; x++; w++; y++;`.
 * Style: fp32, int64_t counters, `*x` dereferences, sum in double as ggml does, no clause. */
#include <math.h>
#include <stdint.h>

void rms_norm_mul(int64_t ne00, int64_t ne01, float eps, const float *src, const float *weight, float *dst)
{
#pragma fuse kernel(rms_norm_mul) parallel(i01)
	for (int64_t i01 = 0; i01 < ne01; i01++) {
		const float *x = src + i01 * ne00;
		double sum = 0.0;
		for (int64_t i00 = 0; i00 < ne00; i00++) {
			sum += (double)(*x * *x);
			x++;
		}
		const float mean = (float)(sum / ne00);
		const float scale = 1.0f / sqrtf(mean + eps);
		const float *xr = src + i01 * ne00;
		const float *w = weight;
		float *y = dst + i01 * ne00;
		for (int64_t i00 = 0; i00 < ne00; i00++) {
			*y = *xr * scale * *w;
			xr++;
			w++;
			y++;
		}
	}
}
