/* Megatron-LM's scaled_masked_softmax: input [b][np][sq][sk] (bf16), mask [b][1][sq][sk] uint8
 * (1 = masked) broadcast over the heads, masked elements set to -10000.0 after the scale (not
 * -inf, so a fully masked row comes out uniform), softmax in float. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void scaled_masked_softmax(int b_, int np_, int sq, int sk, float scale, const fusecc_bf16 input[b_][np_][sq][sk],
		const uint8_t mask[b_][1][sq][sk], fusecc_bf16 output[b_][np_][sq][sk])
{
#pragma fuse kernel(scaled_masked_softmax)
	for (int b = 0; b < b_; b++)
		for (int h = 0; h < np_; h++)
			for (int i = 0; i < sq; i++) {
				float elements[sk];
				float max_value = -INFINITY;
				for (int j = 0; j < sk; j++) {
					elements[j] = mask[b][0][i][j] == 1 ? -10000.0f : fusecc_bf16_to_float(input[b][h][i][j]) * scale;
					max_value = fmaxf(max_value, elements[j]);
				}
				float sum = 0.0f;
				for (int j = 0; j < sk; j++) {
					elements[j] = expf(elements[j] - max_value);
					sum += elements[j];
				}
				for (int j = 0; j < sk; j++) output[b][h][i][j] = fusecc_float_to_bf16(elements[j] / sum);
			}
}
