/* ggml-cpu ggml_compute_forward_norm_f32 (LayerNorm without affine, whisper.cpp / llama.cpp): sum in
 * ggml_float (double), mean, y[i00] = x[i00] - mean stored into dst, sum2 += y*y read back from dst,
 * variance = sum2 / ne00, scale = 1/sqrt(variance + eps), ggml_vec_scale_f32(ne00, y, scale). */
#include <math.h>
void ggml_norm_f32(int nrows, int ne00, float eps, const float src0[nrows][ne00], float dst[nrows][ne00])
{
#pragma fuse kernel(ggml_norm_f32)
	for (int i01 = 0; i01 < nrows; i01++) {
		double sum = 0.0;
		for (int i00 = 0; i00 < ne00; i00++) sum += (double)src0[i01][i00];
		const float mean = (float)(sum / ne00);
		double sum2 = 0.0;
		for (int i00 = 0; i00 < ne00; i00++) {
			const float v = src0[i01][i00] - mean;
			dst[i01][i00] = v;
			sum2 += (double)(v * v);
		}
		const float variance = (float)(sum2 / ne00);
		const float scale = 1.0f / sqrtf(variance + eps);
		for (int i00 = 0; i00 < ne00; i00++) dst[i01][i00] *= scale;
	}
}
