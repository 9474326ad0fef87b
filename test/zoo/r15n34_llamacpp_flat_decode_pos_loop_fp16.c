/* llama.cpp-style decode over a flat fp16 KV cache [n_ctx][n_head_kv][head_dim] (one sequence),
 * loop `for (int t = 0; t <= pos; t++)`, GQA by h / n_gqa, run-time head_dim, size_t offsets. */
#include <math.h>
#include <stddef.h>

void llm_decode(int n_head, int n_gqa, int n_ctx, int head_dim, int pos, const _Float16 *q,
		const _Float16 *k_cache, const _Float16 *v_cache, _Float16 *out)
{
	const float kq_scale = 1.0f / sqrtf((float)head_dim);
	const int n_head_kv = n_head / n_gqa;
#pragma fuse kernel(llm_decode) parallel(h) splitk(t)
	for (int h = 0; h < n_head; h++) {
		const int hk = h / n_gqa;
		float att[n_ctx];
		float mx = -INFINITY;
		for (int t = 0; t <= pos; t++) {
			const size_t off = ((size_t)t * n_head_kv + hk) * head_dim;
			float s = 0.0f;
			for (int d = 0; d < head_dim; d++) s += (float)q[h * head_dim + d] * (float)k_cache[off + d];
			att[t] = s * kq_scale;
			mx = fmaxf(mx, att[t]);
		}
		float sum = 0.0f;
		for (int t = 0; t <= pos; t++) { att[t] = expf(att[t] - mx); sum += att[t]; }
		for (int d = 0; d < head_dim; d++) {
			float acc = 0.0f;
			for (int t = 0; t <= pos; t++)
				acc += att[t] * (float)v_cache[((size_t)t * n_head_kv + hk) * head_dim + d];
			out[h * head_dim + d] = (_Float16)(acc / sum);
		}
	}
}
