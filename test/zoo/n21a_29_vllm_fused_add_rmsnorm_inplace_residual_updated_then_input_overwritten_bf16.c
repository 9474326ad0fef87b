/* vLLM's fused_add_rms_norm reference: residual += input (stored back into residual), then the
 * input buffer is overwritten with rmsnorm(residual) * weight. Both arrays in place, bf16. */
#include <math.h>
#include "fusecc.h"

void fused_add_rms_norm(int num_tokens, int hidden, float eps, fusecc_bf16 input[num_tokens][hidden],
			fusecc_bf16 residual[num_tokens][hidden], const fusecc_bf16 weight[hidden])
{
#pragma fuse kernel(fused_add_rms_norm) parallel(t)
	for (int t = 0; t < num_tokens; t++) {
		float variance = 0.0f;
		for (int c = 0; c < hidden; c++) {
			float z = fusecc_bf16_to_float(input[t][c]) + fusecc_bf16_to_float(residual[t][c]);
			residual[t][c] = fusecc_float_to_bf16(z);
			variance += z * z;
		}
		const float s = 1.0f / sqrtf(variance / hidden + eps);
		for (int c = 0; c < hidden; c++)
			input[t][c] = fusecc_float_to_bf16(fusecc_bf16_to_float(residual[t][c]) * s * fusecc_bf16_to_float(weight[c]));
	}
}
