/* Megatron-LM's scaled_upper_triang_masked_softmax (fused_softmax, the reference path):
 * input [attn_batches][sq][sk] with sq == sk, elements j > i masked, the masked outputs 0,
 * x * scale before the max; written as the CUDA kernel's semantics in plain loops, fp16 in/out. */
#include <math.h>

void scaled_upper_triang_masked_softmax(int attn_batches, int sq, float scale,
		const _Float16 input[attn_batches][sq][sq], _Float16 output[attn_batches][sq][sq])
{
#pragma fuse kernel(upper_triang_softmax) parallel(b, i)
	for (int b = 0; b < attn_batches; b++)
		for (int i = 0; i < sq; i++) {
			float max_value = -INFINITY;
			for (int j = 0; j <= i; j++) {
				const float e = (float)input[b][i][j] * scale;
				max_value = e > max_value ? e : max_value;
			}
			float sum = 0.0f;
			for (int j = 0; j <= i; j++) sum += expf((float)input[b][i][j] * scale - max_value);
			for (int j = 0; j < sq; j++)
				output[b][i][j] = j <= i ? (_Float16)(expf((float)input[b][i][j] * scale - max_value) / sum) : (_Float16)0.0f;
		}
}
