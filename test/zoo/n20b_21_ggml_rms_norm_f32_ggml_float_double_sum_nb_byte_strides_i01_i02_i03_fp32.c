/* ggml_compute_forward_rms_norm_f32 (ggml-cpu/ops.cpp) for one thread: rows i01 of i02 of i03,
 * x read through the src0 row pointer, sum kept in ggml_float (double), mean = sum / ne00,
 * scale = 1.0f / sqrtf(mean + eps), y = x * scale (ggml_vec_scale_f32 after a memcpy). */
#include <math.h>
#include <stdint.h>

typedef double ggml_float;

void ggml_rms_norm_f32(int ne00, int ne01, int ne02, int ne03, float eps,
		const float src0[ne03][ne02][ne01][ne00], float dst[ne03][ne02][ne01][ne00])
{
#pragma fuse kernel(rms_norm_f32) parallel(i03, i02, i01)
	for (int64_t i03 = 0; i03 < ne03; i03++) {
		for (int64_t i02 = 0; i02 < ne02; i02++) {
			for (int64_t i01 = 0; i01 < ne01; i01++) {
				const float *x = &src0[i03][i02][i01][0];
				ggml_float sum = 0.0;
				for (int64_t i00 = 0; i00 < ne00; i00++) {
					sum += (ggml_float)(x[i00] * x[i00]);
				}
				const float mean = sum / ne00;
				float *y = &dst[i03][i02][i01][0];
				for (int64_t i00 = 0; i00 < ne00; i00++) y[i00] = x[i00];
				const float scale = 1.0f / sqrtf(mean + eps);
				for (int64_t i00 = 0; i00 < ne00; i00++) y[i00] *= scale;
			}
		}
	}
}
