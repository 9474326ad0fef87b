/* vLLM's fused_add_rms_norm reference: residual += input (stored back), then
 * input = rmsnorm(residual) * w, both buffers updated in place. bf16. */
#include <math.h>
#include "fusecc.h"

void fused_add_rms_norm(int num_tokens, int hidden, float eps, fusecc_bf16 input[num_tokens][hidden],
			fusecc_bf16 residual[num_tokens][hidden], const fusecc_bf16 weight[hidden])
{
#pragma fuse kernel(fused_add_rms_norm) parallel(t)
	for (int t = 0; t < num_tokens; t++) {
		float variance = 0.0f;
		for (int i = 0; i < hidden; i++) {
			float z = fusecc_bf16_to_float(input[t][i]) + fusecc_bf16_to_float(residual[t][i]);
			residual[t][i] = fusecc_float_to_bf16(z);
			z = fusecc_bf16_to_float(residual[t][i]);
			variance += z * z;
		}
		const float s_variance = 1.0f / sqrtf(variance / hidden + eps);
		for (int i = 0; i < hidden; i++) {
			float x = fusecc_bf16_to_float(residual[t][i]);
			input[t][i] = fusecc_float_to_bf16(fusecc_bf16_to_float(fusecc_float_to_bf16(x * s_variance)) *
							    fusecc_bf16_to_float(weight[i]));
		}
	}
}
