/* s27q_01_bnb_int8_vectorwise_quant_rint_fp16: bitsandbytes' int8_vectorwise_quant (LLM.int8()'s
 * row-wise quantisation of the activations) as its CPU reference writes it: the row's absmax
 * of an fp16 input kept as the row statistic, codes = rint(x * 127 / absmax) stored as int8
 * (round to nearest even, as the CUDA kernel's __float2int_rn). The product is at most 127
 * in magnitude up to a rounding, so no clamp is needed; an all-zero row gets codes 0. */
#include <math.h>
#include <stdint.h>

void int8_vectorwise_quant(int rows, int cols, const _Float16 A[rows][cols], int8_t out[rows][cols], float row_stats[rows])
{
#pragma fuse kernel(int8_vectorwise_quant) parallel(r)
	for (int r = 0; r < rows; r++) {
		float absmax = 0.0f;
		for (int c = 0; c < cols; c++)
			absmax = fmaxf(absmax, fabsf((float)A[r][c]));
		row_stats[r] = absmax;
		const float inv = absmax > 0.0f ? 127.0f / absmax : 0.0f;
		for (int c = 0; c < cols; c++)
			out[r][c] = (int8_t)rintf((float)A[r][c] * inv);
	}
}
