/* SGLang's decode_attention reference (torch_native backend) in C: the request's slot in the
 * token pool comes from req_pool_indices (int64), its token slots from req_to_token (int32),
 * page size 1; k_buffer[total_tokens][kv_heads][64]; query heads of one KV head by a group loop. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void sglang_decode(int bs, int num_kv_heads, int group, int pool_size, int max_context_len, int total_tokens,
		const fusecc_bf16 q[bs][num_kv_heads * group][64],
		const fusecc_bf16 k_buffer[total_tokens][num_kv_heads][64],
		const fusecc_bf16 v_buffer[total_tokens][num_kv_heads][64],
		const int64_t req_pool_indices[bs], const int32_t req_to_token[pool_size][max_context_len],
		const int32_t seq_lens[bs], float sm_scale,
		fusecc_bf16 o[bs][num_kv_heads * group][64])
{
#pragma fuse kernel(sglang_decode) parallel(b, kh, g) splitk(t)
	for (int b = 0; b < bs; b++)
		for (int kh = 0; kh < num_kv_heads; kh++)
			for (int g = 0; g < group; g++) {
				const int head = kh * group + g;
				const int64_t req = req_pool_indices[b];
				float mx = -INFINITY, l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int t = 0; t < seq_lens[b]; t++) {
					const int loc = req_to_token[req][t];
					float qk = 0.0f;
					for (int d = 0; d < 64; d++)
						qk += fusecc_bf16_to_float(q[b][head][d]) * fusecc_bf16_to_float(k_buffer[loc][kh][d]);
					qk *= sm_scale;
					float nm = mx > qk ? mx : qk;
					float a = expf(mx - nm), p = expf(qk - nm);
					l = l * a + p;
					for (int d = 0; d < 64; d++)
						acc[d] = acc[d] * a + p * fusecc_bf16_to_float(v_buffer[loc][kh][d]);
					mx = nm;
				}
				for (int d = 0; d < 64; d++) o[b][head][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
