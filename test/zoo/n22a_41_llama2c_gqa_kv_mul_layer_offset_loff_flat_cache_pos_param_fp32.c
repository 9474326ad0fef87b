/* llama2.c's run.c forward(), attention part, kept as close to the original as fusecc allows: the KV
 * cache of all layers, loff = l * seq_len * kv_dim, head h reads kv head h / kv_mul, att row over
 * t <= pos, softmax, weighted sum into xb. Batch of one, fp32, head_size = dim / n_heads. */
#include <math.h>

void llama2c_attention(int dim, int n_heads, int n_kv_heads, int seq_len, int n_layers, int l, int pos,
		       const float *q, const float *key_cache, const float *value_cache, float *att, float *xb)
{
	const int head_size = dim / n_heads;
	const int kv_dim = (dim * n_kv_heads) / n_heads;
	const int kv_mul = n_heads / n_kv_heads;
	const int loff = l * seq_len * kv_dim;
#pragma fuse kernel(llama2c_attention) parallel(h)
	for (int h = 0; h < n_heads; h++) {
		const float *qh = q + h * head_size;
		float *atth = att + h * seq_len;
		for (int t = 0; t <= pos; t++) {
			const float *k = key_cache + loff + t * kv_dim + (h / kv_mul) * head_size;
			float score = 0.0f;
			for (int i = 0; i < head_size; i++) score += qh[i] * k[i];
			score /= sqrtf(head_size);
			atth[t] = score;
		}
		float max_val = atth[0];
		for (int t = 1; t <= pos; t++)
			if (atth[t] > max_val) max_val = atth[t];
		float sum = 0.0f;
		for (int t = 0; t <= pos; t++) {
			atth[t] = expf(atth[t] - max_val);
			sum += atth[t];
		}
		for (int t = 0; t <= pos; t++) atth[t] /= sum;
		float *xbh = xb + h * head_size;
		for (int i = 0; i < head_size; i++) xbh[i] = 0.0f;
		for (int t = 0; t <= pos; t++) {
			const float *v = value_cache + loff + t * kv_dim + (h / kv_mul) * head_size;
			const float a = atth[t];
			for (int i = 0; i < head_size; i++) xbh[i] += a * v[i];
		}
	}
}
