/* ggml_compute_forward_soft_max_f32: wp = scratch row (params->wdata), wp = sp * scale, then
 * += slope * mp[i] with the fp16 mask row i01 % ne11 (the mask is broadcast over heads and
 * padded rows), max by ggml_vec_max_f32, sum as ggml_float (double) from
 * ggml_vec_soft_max_f32 writing dp = exp(wp - max), then ggml_vec_scale_f32(1/sum). */
#include <math.h>
#include <stdint.h>

typedef double ggml_float;

void ggml_soft_max_f32(int ne00, int ne01, int ne02, int ne11, float scale, float slope,
		const float src0[ne02][ne01][ne00], const _Float16 mask[ne11][ne00], float dst[ne02][ne01][ne00])
{
#pragma fuse kernel(soft_max_f32) parallel(i02, i01)
	for (int i02 = 0; i02 < ne02; i02++)
		for (int i01 = 0; i01 < ne01; i01++) {
			float wp[ne00];
			const float *sp = src0[i02][i01];
			float *dp = dst[i02][i01];
			for (int i = 0; i < ne00; i++) wp[i] = sp[i] * scale;
			for (int i = 0; i < ne00; i++) wp[i] += slope * (float)mask[i01 % ne11][i];
			float max = -INFINITY;
			for (int i = 0; i < ne00; i++) max = max > wp[i] ? max : wp[i];
			ggml_float sum = 0.0;
			for (int i = 0; i < ne00; i++) {
				float val = expf(wp[i] - max);
				sum += (ggml_float)val;
				dp[i] = val;
			}
			sum = 1.0 / sum;
			for (int i = 0; i < ne00; i++) dp[i] *= sum;
		}
}
