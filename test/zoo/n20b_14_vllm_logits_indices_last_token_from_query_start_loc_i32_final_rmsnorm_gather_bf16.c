/* vLLM's model runner: hidden_states[logits_indices] with logits_indices = query_start_loc[1:] - 1
 * (the last token of every request), then the model's final RMSNorm (Llama, weight * x.to(bf16));
 * gathers the rows by index and normalises them in one loop. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void gather_last_rmsnorm(int num_reqs, int num_tokens, int hidden_size, float eps,
		const fusecc_bf16 hidden_states[num_tokens][hidden_size], const int32_t query_start_loc[num_reqs + 1],
		const fusecc_bf16 weight[hidden_size], fusecc_bf16 out[num_reqs][hidden_size])
{
#pragma fuse kernel(gather_last_rmsnorm) parallel(r)
	for (int r = 0; r < num_reqs; r++) {
		const int idx = query_start_loc[r + 1] - 1;
		float variance = 0.0f;
		for (int c = 0; c < hidden_size; c++) {
			const float x = fusecc_bf16_to_float(hidden_states[idx][c]);
			variance += x * x;
		}
		variance /= hidden_size;
		const float inv = 1.0f / sqrtf(variance + eps);
		for (int c = 0; c < hidden_size; c++) {
			const fusecc_bf16 xn = fusecc_float_to_bf16(fusecc_bf16_to_float(hidden_states[idx][c]) * inv);
			out[r][c] = fusecc_float_to_bf16(fusecc_bf16_to_float(weight[c]) * fusecc_bf16_to_float(xn));
		}
	}
}
