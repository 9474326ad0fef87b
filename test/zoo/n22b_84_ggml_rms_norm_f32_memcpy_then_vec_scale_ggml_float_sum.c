/* ggml_compute_forward_rms_norm_f32 as in ggml-cpu: sum of squares in ggml_float, then
 * memcpy(y, x) and ggml_vec_scale_f32(ne00, y, scale). */
#include <math.h>
#include <string.h>

typedef double ggml_float;

static void ggml_vec_scale_f32(const int n, float *y, const float v)
{
	for (int i = 0; i < n; ++i)
		y[i] *= v;
}

void ggml_rms_norm(int ne00, int ne01, float eps, const float *src0, float *dst)
{
#pragma fuse kernel(ggml_rms_norm) parallel(i01)
	for (int i01 = 0; i01 < ne01; i01++) {
		const float *x = src0 + (long)i01 * ne00;
		ggml_float sum = 0.0;
		for (int i00 = 0; i00 < ne00; i00++)
			sum += (ggml_float)(x[i00] * x[i00]);
		const float mean = sum / ne00;
		float *y = dst + (long)i01 * ne00;
		memcpy(y, x, ne00 * sizeof(float));
		const float scale = 1.0f / sqrtf(mean + eps);
		ggml_vec_scale_f32(ne00, y, scale);
	}
}
