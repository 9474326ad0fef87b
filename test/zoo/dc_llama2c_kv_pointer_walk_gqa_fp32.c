/* dc_llama2c_kv_pointer_walk_gqa_fp32.c: llama2.c's GQA attention step as a C programmer who
 * dislikes recomputing addresses writes it: a pointer into the key cache set once per head,
 * then advanced by one cache row (`kt += kv_dim;`) after each position, the same for the value
 * cache; the scores in a VLA softmaxed by llama2.c's helper, the output row cleared with memset.
 * Style: fp32, run-time head size, set-up kv_dim and kv_mul, kv head `h / kv_mul`, t <= pos,
 * no strategy clause. */
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

void gqa_step(int n_heads, int n_kv_heads, int head_size, int seq_len, int pos, const float *q,
	      const float *key_cache, const float *value_cache, float *xb)
{
	int kv_dim = n_kv_heads * head_size;
	int kv_mul = n_heads / n_kv_heads;
#pragma fuse kernel(gqa_step) parallel(h)
	for (int h = 0; h < n_heads; h++) {
		const float *qh = q + h * head_size;
		float att[seq_len];
		const float *kt = key_cache + (h / kv_mul) * head_size;
		for (int t = 0; t <= pos; t++) {
			float score = 0.0f;
			for (int i = 0; i < head_size; i++)
				score += qh[i] * kt[i];
			att[t] = score / sqrtf(head_size);
			kt += kv_dim;
		}
		softmax(att, pos + 1);
		float *xh = xb + h * head_size;
		memset(xh, 0, head_size * sizeof(float));
		const float *vt = value_cache + (h / kv_mul) * head_size;
		for (int t = 0; t <= pos; t++) {
			const float a = att[t];
			for (int i = 0; i < head_size; i++)
				xh[i] += a * vt[i];
			vt += kv_dim;
		}
	}
}
