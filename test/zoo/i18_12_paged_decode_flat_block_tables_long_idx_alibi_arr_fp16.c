/* vLLM paged_attention_v1 reference in C: everything flat (block_tables[b * max_blocks + ...],
 * cache [num_blocks][num_kv_heads][block_size][head_size] as a pointer), long loop indices,
 * ALiBi slopes from an array added as slope * (t - ctx + 1), head_size run-time. fp16. */
#include <math.h>
#include <stdint.h>

void paged_attention_v1(int num_seqs, int num_heads, int num_kv_heads, int head_size, int block_size, int max_blocks,
			const int *block_tables, const int *context_lens, const float *alibi_slopes,
			const _Float16 *query, const _Float16 *key_cache, const _Float16 *value_cache, _Float16 *out)
{
	const float scale = 1.0f / sqrtf((float)head_size);
	const int q_per_kv = num_heads / num_kv_heads;
#pragma fuse kernel(paged_attention_v1) parallel(s, h) splitk(t)
	for (long s = 0; s < num_seqs; s++)
		for (long h = 0; h < num_heads; h++) {
			const long kvh = h / q_per_kv;
			const int ctx = context_lens[s];
			const _Float16 *qp = query + (s * num_heads + h) * head_size;
			float logits[max_blocks * block_size];
			float qk_max = -INFINITY;
			for (long t = 0; t < ctx; t++) {
				const long blk = block_tables[s * max_blocks + t / block_size];
				const _Float16 *kp = key_cache + ((blk * num_kv_heads + kvh) * block_size + t % block_size) * head_size;
				float qk = 0.0f;
				for (long d = 0; d < head_size; d++) qk += (float)qp[d] * (float)kp[d];
				qk = qk * scale + alibi_slopes[h] * (float)(t - ctx + 1);
				logits[t] = qk;
				qk_max = fmaxf(qk_max, qk);
			}
			float exp_sum = 0.0f;
			for (long t = 0; t < ctx; t++) {
				const float e = expf(logits[t] - qk_max);
				logits[t] = e;
				exp_sum += e;
			}
			const float inv_sum = 1.0f / (exp_sum + 1e-6f);
			for (long d = 0; d < head_size; d++) {
				float acc = 0.0f;
				for (long t = 0; t < ctx; t++) {
					const long blk = block_tables[s * max_blocks + t / block_size];
					acc += logits[t] * (float)value_cache[((blk * num_kv_heads + kvh) * block_size + t % block_size) * head_size + d];
				}
				out[(s * num_heads + h) * head_size + d] = (_Float16)(acc * inv_sum);
			}
		}
}
