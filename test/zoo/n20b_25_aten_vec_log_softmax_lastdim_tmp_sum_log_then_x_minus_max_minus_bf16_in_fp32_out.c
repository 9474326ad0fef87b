/* ATen's vec_log_softmax_lastdim (aten/src/ATen/native/cpu/SoftMaxKernel.cpp) unvectorised:
 * max_input, tmp_sum = sum exp(x - max), tmp_sum = std::log(tmp_sum), out = x - max - tmp_sum,
 * bf16 input accumulated in float, float output (log_softmax(x, dim=-1, dtype=torch.float32)). */
#include <math.h>
#include "fusecc.h"

void log_softmax_lastdim(int outer_size, int dim_size, const fusecc_bf16 *input_data, float *output_data)
{
#pragma fuse kernel(log_softmax_lastdim) parallel(i)
	for (int i = 0; i < outer_size; i++) {
		const fusecc_bf16 *input_ptr = input_data + i * dim_size;
		float *output_ptr = output_data + i * dim_size;
		float max_input = -INFINITY;
		for (int d = 0; d < dim_size; d++) {
			float x = fusecc_bf16_to_float(input_ptr[d]);
			max_input = x > max_input ? x : max_input;
		}
		float tmp_sum = 0;
		for (int d = 0; d < dim_size; d++) tmp_sum += expf(fusecc_bf16_to_float(input_ptr[d]) - max_input);
		tmp_sum = logf(tmp_sum);
		for (int d = 0; d < dim_size; d++)
			output_ptr[d] = fusecc_bf16_to_float(input_ptr[d]) - max_input - tmp_sum;
	}
}
