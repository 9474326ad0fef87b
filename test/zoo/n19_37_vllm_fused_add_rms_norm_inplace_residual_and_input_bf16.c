/* vLLM fused_add_rms_norm reference (CPU fallback): residual = input + residual (written back into residual),
 * variance = mean(residual^2) in float, input = (residual * rsqrt(var + eps)).to(bf16) * weight (written into input). */
#include <math.h>
#include "fusecc.h"
void fused_add_rms_norm(int num_tokens, int hidden_size, float epsilon, fusecc_bf16 input[num_tokens][hidden_size],
			fusecc_bf16 residual[num_tokens][hidden_size], const fusecc_bf16 weight[hidden_size])
{
#pragma fuse kernel(fused_add_rms_norm) parallel(t)
	for (int t = 0; t < num_tokens; t++) {
		float variance = 0.0f;
		for (int i = 0; i < hidden_size; i++) {
			const float z = fusecc_bf16_to_float(input[t][i]) + fusecc_bf16_to_float(residual[t][i]);
			residual[t][i] = fusecc_float_to_bf16(z);
			const float zr = fusecc_bf16_to_float(residual[t][i]);
			variance += zr * zr;
		}
		const float s = 1.0f / sqrtf(variance / (float)hidden_size + epsilon);
		for (int i = 0; i < hidden_size; i++) {
			const float x = fusecc_bf16_to_float(residual[t][i]);
			input[t][i] = fusecc_float_to_bf16(fusecc_bf16_to_float(fusecc_float_to_bf16(x * s)) * fusecc_bf16_to_float(weight[i]));
		}
	}
}
