/* ggml's soft_max op as a contributor lifts it out of ggml-cpu: the shapes in ggml's
 * int64_t ne00/ne01 and the op's float params (scale, max_bias) in a struct passed by
 * value; max_bias is 0 for this model and left unread, the loops count in int. */
#include <math.h>
#include <stdint.h>

struct ggml_soft_max_params {
	int64_t ne00; /* row length */
	int64_t ne01; /* rows */
	float scale;
	float max_bias;
};

void ggml_soft_max_f32(struct ggml_soft_max_params op, const float *src0, float *dst)
{
#pragma fuse kernel(ggml_soft_max_f32) parallel(i1)
	for (int i1 = 0; i1 < op.ne01; i1++) {
		float max = -INFINITY;
		for (int i0 = 0; i0 < op.ne00; i0++)
			max = fmaxf(max, src0[i1 * op.ne00 + i0] * op.scale);
		float sum = 0.0f;
		for (int i0 = 0; i0 < op.ne00; i0++)
			sum += expf(src0[i1 * op.ne00 + i0] * op.scale - max);
		const float inv = 1.0f / sum;
		for (int i0 = 0; i0 < op.ne00; i0++)
			dst[i1 * op.ne00 + i0] = expf(src0[i1 * op.ne00 + i0] * op.scale - max) * inv;
	}
}
