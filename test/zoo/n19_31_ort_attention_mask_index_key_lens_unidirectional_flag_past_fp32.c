/* onnxruntime contrib Attention CPU (attention_cpu_base.h ComputeAttentionProbs) ported: 1-D mask_index holds each
 * batch's valid key count (keys past it get mask_filter_value -10000), is_unidirectional adds the causal part
 * over past + new keys (key j > past + s is masked), alpha = 1/sqrt(head_size) unless scale given. */
#include <math.h>
#include <stdint.h>
void ort_attention(int batch_size, int num_heads, int sequence_length, int past_sequence_length, int is_unidirectional,
		   float scale, const int32_t mask_index[batch_size],
		   const float Q[batch_size][num_heads][sequence_length][64],
		   const float K[batch_size][num_heads][past_sequence_length + sequence_length][64],
		   const float V[batch_size][num_heads][past_sequence_length + sequence_length][64],
		   float output[batch_size][sequence_length][num_heads][64])
{
	const int total_sequence_length = past_sequence_length + sequence_length;
	const float alpha = scale == 0.0f ? 1.0f / sqrtf(64.0f) : scale;
	const float mask_filter_value = -10000.0f;
#pragma fuse kernel(ort_attention) parallel(b, n, s)
	for (int b = 0; b < batch_size; b++)
		for (int n = 0; n < num_heads; n++)
			for (int s = 0; s < sequence_length; s++) {
				float probs[total_sequence_length];
				for (int j = 0; j < total_sequence_length; j++) {
					float x = 0.0f;
					for (int d = 0; d < 64; d++) x += Q[b][n][s][d] * K[b][n][j][d];
					float mask = 0.0f;
					if (j >= mask_index[b]) mask = mask_filter_value;
					if (is_unidirectional && j > past_sequence_length + s) mask = mask_filter_value;
					probs[j] = x * alpha + mask;
				}
				float max = probs[0];
				for (int j = 1; j < total_sequence_length; j++) max = probs[j] > max ? probs[j] : max;
				float sum = 0.0f;
				for (int j = 0; j < total_sequence_length; j++) { probs[j] = expf(probs[j] - max); sum += probs[j]; }
				for (int j = 0; j < total_sequence_length; j++) probs[j] = probs[j] / sum;
				for (int d = 0; d < 64; d++) {
					float o = 0.0f;
					for (int j = 0; j < total_sequence_length; j++) o += probs[j] * V[b][n][j][d];
					output[b][s][n][d] = o;
				}
			}
}
