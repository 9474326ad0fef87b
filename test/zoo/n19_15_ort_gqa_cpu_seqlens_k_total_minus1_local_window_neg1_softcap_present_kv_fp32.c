/* onnxruntime GroupQueryAttention CPU (gqa_attention_base.h) ported: seqlens_k[b] = total_seq_len - 1,
 * past_seqlen = total - S, present K/V buffers [B][KVH][max_seq][D], causal at past_seqlen + s,
 * local_window_size = -1 means none, softcap = 0 means none, scale = 1/sqrt(D). */
#include <math.h>
#include <stdint.h>
void gqa_cpu(int batch_size, int num_heads, int kv_num_heads, int sequence_length, int max_seq, int head_size,
	     int local_window_size, float softcap, const int32_t seqlens_k[batch_size],
	     const float Q[batch_size][num_heads][sequence_length][head_size],
	     const float present_key[batch_size][kv_num_heads][max_seq][head_size],
	     const float present_value[batch_size][kv_num_heads][max_seq][head_size],
	     float output[batch_size][sequence_length][num_heads][head_size])
{
	const float alpha = 1.0f / sqrtf((float)head_size);
	const int kv_num_heads_factor = num_heads / kv_num_heads;
#pragma fuse kernel(gqa_cpu) parallel(b, n, s)
	for (int b = 0; b < batch_size; b++)
		for (int n = 0; n < num_heads; n++)
			for (int s = 0; s < sequence_length; s++) {
				const int total_seqlen = seqlens_k[b] + 1;
				const int past_seqlen = total_seqlen - sequence_length;
				const int seq_causal_length = past_seqlen + s + 1;
				float out_tmp[max_seq];
				float max = -INFINITY;
				for (int t = 0; t < seq_causal_length; t++) {
					float x = 0.0f;
					for (int c = 0; c < head_size; c++) x += Q[b][n][s][c] * present_key[b][n / kv_num_heads_factor][t][c];
					x *= alpha;
					if (softcap > 0.0f) x = softcap * tanhf(x / softcap);
					if (local_window_size >= 0 && t < seq_causal_length - local_window_size - 1) x = -INFINITY;
					out_tmp[t] = x;
					max = fmaxf(max, x);
				}
				float sum = 0.0f;
				for (int t = 0; t < seq_causal_length; t++) { out_tmp[t] = expf(out_tmp[t] - max); sum += out_tmp[t]; }
				for (int c = 0; c < head_size; c++) {
					float o = 0.0f;
					for (int t = 0; t < seq_causal_length; t++) o += out_tmp[t] / sum * present_value[b][n / kv_num_heads_factor][t][c];
					output[b][s][n][c] = o;
				}
			}
}
