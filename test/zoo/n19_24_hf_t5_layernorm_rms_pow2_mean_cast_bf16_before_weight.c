/* HF T5LayerNorm: variance = hidden.to(float32).pow(2).mean(-1); hidden = hidden * rsqrt(variance + eps);
 * if weight is half/bf16: hidden = hidden.to(weight.dtype); return weight * hidden (product rounded again). */
#include <math.h>
#include "fusecc.h"
void t5_layernorm(int rows, int d_model, float variance_epsilon, const fusecc_bf16 hidden_states[rows][d_model],
		  const fusecc_bf16 weight[d_model], fusecc_bf16 out[rows][d_model])
{
#pragma fuse kernel(t5_layernorm)
	for (int r = 0; r < rows; r++) {
		float variance = 0.0f;
		for (int c = 0; c < d_model; c++) variance += powf(fusecc_bf16_to_float(hidden_states[r][c]), 2.0f);
		variance = variance / (float)d_model;
		const float rs = 1.0f / sqrtf(variance + variance_epsilon);
		for (int c = 0; c < d_model; c++) {
			const fusecc_bf16 h = fusecc_float_to_bf16(fusecc_bf16_to_float(hidden_states[r][c]) * rs);
			out[r][c] = fusecc_float_to_bf16(fusecc_bf16_to_float(weight[c]) * fusecc_bf16_to_float(h));
		}
	}
}
