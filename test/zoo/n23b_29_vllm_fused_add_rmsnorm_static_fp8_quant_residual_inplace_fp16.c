/* vLLM's fused_add_rms_norm_static_fp8_quant reference: residual += input (in place, fp16),
 * then RMSNorm of the new residual with weight, then divide by the static (per-tensor)
 * scale and store fp8 e4m3. A kernel author's flat-pointer C. */
#include <math.h>
#include "fusecc.h"

void fused_add_rmsnorm_fp8(int num_tokens, int hidden, float eps, const _Float16 *input,
			   _Float16 *residual, const _Float16 *weight, const float *scale,
			   fusecc_fp8e4m3 *out)
{
#pragma fuse kernel(fused_add_rmsnorm_fp8) parallel(t)
	for (int t = 0; t < num_tokens; t++) {
		float variance = 0.0f;
		for (int i = 0; i < hidden; i++) {
			_Float16 z = (_Float16)((float)input[t * hidden + i] + (float)residual[t * hidden + i]);
			residual[t * hidden + i] = z;
			float x = (float)z;
			variance += x * x;
		}
		const float s_variance = 1.0f / sqrtf(variance / hidden + eps);
		const float inv_scale = 1.0f / *scale;
		for (int i = 0; i < hidden; i++) {
			float x = (float)residual[t * hidden + i];
			float out_norm = (float)(_Float16)(x * s_variance) * (float)weight[i];
			out[t * hidden + i] = fusecc_float_to_fp8e4m3(out_norm * inv_scale);
		}
	}
}
