/* Multi-query decode step (PaLM / Falcon-7B style): one shared K/V head, KV cache padded to
 * max_seq, current length per batch element, loop over the full cache with `break` once
 * past the length. bf16, run-time head dim, scores in a row buffer. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void mqa_decode(int bsz, int n_heads, int max_seq, int head_dim, const int cache_len[bsz],
		const fusecc_bf16 q[bsz][n_heads][head_dim], const fusecc_bf16 k_cache[bsz][max_seq][head_dim],
		const fusecc_bf16 v_cache[bsz][max_seq][head_dim], fusecc_bf16 out[bsz][n_heads][head_dim])
{
	float scale = 1.0f / sqrtf((float)head_dim);
#pragma fuse kernel(mqa_decode) parallel(b, h)
	for (int b = 0; b < bsz; b++)
		for (int h = 0; h < n_heads; h++) {
			float w[max_seq];
			float wmax = -INFINITY;
			for (int t = 0; t < max_seq; t++) {
				if (t >= cache_len[b])
					break;
				float acc = 0.0f;
				for (int d = 0; d < head_dim; d++)
					acc += fusecc_bf16_to_float(q[b][h][d]) * fusecc_bf16_to_float(k_cache[b][t][d]);
				w[t] = acc * scale;
				wmax = fmaxf(wmax, w[t]);
			}
			float wsum = 0.0f;
			for (int t = 0; t < cache_len[b]; t++) {
				w[t] = expf(w[t] - wmax);
				wsum += w[t];
			}
			for (int d = 0; d < head_dim; d++) {
				float o = 0.0f;
				for (int t = 0; t < cache_len[b]; t++)
					o += w[t] * fusecc_bf16_to_float(v_cache[b][t][d]);
				out[b][h][d] = fusecc_float_to_bf16(o / wsum);
			}
		}
}
