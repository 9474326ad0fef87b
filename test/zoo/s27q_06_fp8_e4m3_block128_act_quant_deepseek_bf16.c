/* s27q_06_fp8_e4m3_block128_act_quant_deepseek_bf16: DeepSeek-V3's act_quant (inference/
 * kernel.py, block_size 128) as a C loop nest: each token's hidden dim in blocks of 128, a
 * scale per block s = amax / 448, y = x / s converted to e4m3, the scales [T][K / 128]
 * kept for the fp8 GEMM. As the Triton kernel, an all-zero block divides by zero: its
 * codes are NaN, which the conversion keeps (the reference's behaviour, not guarded here
 * either). */
#include <math.h>
#include "fusecc.h"
#define BLOCK 128

void act_quant(int T, int NB, const fusecc_bf16 x[T][NB * BLOCK], fusecc_fp8e4m3 y[T][NB * BLOCK], float s[T][NB])
{
#pragma fuse kernel(act_quant) parallel(t, b)
	for (int t = 0; t < T; t++)
		for (int b = 0; b < NB; b++) {
			float amax = 0.0f;
			for (int k = 0; k < BLOCK; k++)
				amax = fmaxf(amax, fabsf(fusecc_bf16_to_float(x[t][b * BLOCK + k])));
			const float sc = amax / 448.0f;
			s[t][b] = sc;
			for (int k = 0; k < BLOCK; k++)
				y[t][b * BLOCK + k] = fusecc_float_to_fp8e4m3(fusecc_bf16_to_float(x[t][b * BLOCK + k]) / sc);
		}
}
