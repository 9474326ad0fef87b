/* dc_llama2c_softmax_helper_memset_fp16.c: llama2.c's decode as its users port it: flat pointers,
 * `const int head_size = 128;`, the scores stored in a VLA `att`, llama2.c's own void helper
 * `softmax(float *x, int size)` (max seeded with x[0], exp in place, normalise in place) called on
 * them, `memset` of the output row, then P.V. splitk(t), parallel(h). */
#include <math.h>
#include <string.h>

static void softmax(float *x, int size)
{
	float max_val = x[0];
	for (int i = 1; i < size; i++)
		if (x[i] > max_val)
			max_val = x[i];
	float sum = 0.0f;
	for (int i = 0; i < size; i++) {
		x[i] = expf(x[i] - max_val);
		sum += x[i];
	}
	for (int i = 0; i < size; i++)
		x[i] /= sum;
}

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
		softmax(att, pos + 1);
		float *xbh = xb + h * head_size;
		memset(xbh, 0, head_size * sizeof(float));
		for (int t = 0; t <= pos; t++) {
			const _Float16 *v = value_cache + t * n_heads * head_size + h * head_size;
			float a = att[t];
			for (int i = 0; i < head_size; i++)
				xbh[i] += a * (float)v[i];
		}
	}
}
