/* ggml_compute_forward_norm_f32 as written in ggml-cpu: sum in ggml_float, the centred row
 * stored into y while summing its squares, then ggml_vec_scale_f32(ne00, y, scale) in place. */
#include <math.h>

typedef double ggml_float;

static void ggml_vec_scale_f32(const int n, float *y, const float v)
{
	for (int i = 0; i < n; ++i)
		y[i] *= v;
}

void ggml_norm(int ne00, int ne01, float eps, const float src0[ne01][ne00], float dst[ne01][ne00])
{
#pragma fuse kernel(ggml_norm) parallel(i01)
	for (int i01 = 0; i01 < ne01; i01++) {
		const float *x = src0[i01];
		ggml_float sum = 0.0;
		for (int i00 = 0; i00 < ne00; i00++)
			sum += (ggml_float)x[i00];
		float mean = sum / ne00;
		float *y = dst[i01];
		ggml_float sum2 = 0.0;
		for (int i00 = 0; i00 < ne00; i00++) {
			float v = x[i00] - mean;
			y[i00] = v;
			sum2 += (ggml_float)(v * v);
		}
		float variance = sum2 / ne00;
		const float scale = 1.0f / sqrtf(variance + eps);
		ggml_vec_scale_f32(ne00, y, scale);
	}
}
