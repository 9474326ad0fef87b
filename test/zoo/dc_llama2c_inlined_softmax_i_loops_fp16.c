/* dc_llama2c_inlined_softmax_i_loops_fp16.c: llama2.c's decode with its softmax written inline,\n * every softmax loop counted by `i` (the same letter as the head-dim loops) over the scores\n * that the `t` loop stored in a VLA: max seeded with att[0] from i = 1, exp in place with the\n * sum, normalise in place; then P.V over t. Flat pointers, const int head_size. splitk(t). */
#include <math.h>
void attention(int n_heads, int seq_len, int pos, const _Float16 *q, const _Float16 *key_cache, const _Float16 *value_cache, float *xb)
{
	const int head_size = 128;
#pragma fuse kernel(attn) parallel(h) splitk(t)
	for (int h = 0; h < n_heads; h++) {
		const _Float16 *qh = q + h * head_size;
		float att[seq_len];
		for (int t = 0; t <= pos; t++) {
			const _Float16 *k = key_cache + t * n_heads * head_size + h * head_size;
			float score = 0.0f;
			for (int i = 0; i < head_size; i++)
				score += (float)qh[i] * (float)k[i];
			score /= sqrtf(head_size);
			att[t] = score;
		}
		float max_val = att[0];
		for (int i = 1; i < pos + 1; i++)
			if (att[i] > max_val)
				max_val = att[i];
		float sum = 0.0f;
		for (int i = 0; i < pos + 1; i++) {
			att[i] = expf(att[i] - max_val);
			sum += att[i];
		}
		for (int i = 0; i < pos + 1; i++)
			att[i] /= sum;
		float *xbh = xb + h * head_size;
		for (int i = 0; i < head_size; i++) xbh[i] = 0.0f;
		for (int t = 0; t <= pos; t++) {
			const _Float16 *v = value_cache + t * n_heads * head_size + h * head_size;
			float a = att[t];
			for (int i = 0; i < head_size; i++)
				xbh[i] += a * (float)v[i];
		}
	}
}
