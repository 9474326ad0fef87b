/* llama2.c-flavoured decode over all heads of one token, a pointer walked per key (kp += D),
 * GQA via kv_mul = H / KVH, written with double fmax/exp on float values; fp32 caches. */
#include <math.h>

void llama2c_attn(int H, int KVH, int T, int D, const float *q, const float *key_cache, const float *value_cache, float *xb)
{
	const int kv_mul = H / KVH;
	const float inv = 1.0f / sqrtf((float)D);
#pragma fuse kernel(llama2c_attn) parallel(h) splitk(t)
	for (int h = 0; h < H; h++) {
		const float *qh = q + h * D;
		float att[T];
		float max_val = -INFINITY;
		const float *kp = key_cache + (h / kv_mul) * D;
		for (int t = 0; t < T; t++) {
			float score = 0.0f;
			for (int i = 0; i < D; i++) score += qh[i] * kp[i];
			att[t] = score * inv;
			max_val = fmax(max_val, att[t]);
			kp += KVH * D;
		}
		float sum = 0.0f;
		for (int t = 0; t < T; t++) {
			att[t] = exp(att[t] - max_val);
			sum += att[t];
		}
		for (int i = 0; i < D; i++) {
			float a = 0.0f;
			for (int t = 0; t < T; t++) a += att[t] / sum * value_cache[(t * KVH + h / kv_mul) * D + i];
			xb[h * D + i] = a;
		}
	}
}
