/* flash_attn_with_kvcache's decode: the cache rows of request b live at cache_batch_idx[b]
 * (int32), cache_seqlens[b] of them are valid; GQA by h / (H / HKV); run-time head dim; bf16.
 * Written as a C port of the Python reference: scores kept in a local array, then a softmax,
 * then P.V with the normalisation inv_l = 1.0f / l multiplied in. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void fwd_kvcache(int B, int H, int HKV, int D, int SMAX, int BC, const int32_t cache_batch_idx[B], const int32_t cache_seqlens[B],
		 const fusecc_bf16 q[B][H][D], const fusecc_bf16 k_cache[BC][SMAX][HKV][D],
		 const fusecc_bf16 v_cache[BC][SMAX][HKV][D], fusecc_bf16 out[B][H][D])
{
	const float softmax_scale = powf((float)D, -0.5f);
#pragma fuse kernel(fwd_kvcache) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int cb = cache_batch_idx[b];
			const int kh = h / (H / HKV);
			const int L = cache_seqlens[b];
			float scores[SMAX];
			float mx = -INFINITY;
			for (int j = 0; j < L; j++) {
				float dot = 0.0f;
				for (int d = 0; d < D; d++)
					dot += fusecc_bf16_to_float(q[b][h][d]) * fusecc_bf16_to_float(k_cache[cb][j][kh][d]);
				scores[j] = dot * softmax_scale;
				if (scores[j] > mx) mx = scores[j];
			}
			float l = 0.0f;
			for (int j = 0; j < L; j++) {
				scores[j] = expf(scores[j] - mx);
				l += scores[j];
			}
			const float inv_l = 1.0f / l;
			for (int d = 0; d < D; d++) {
				float acc = 0.0f;
				for (int j = 0; j < L; j++) acc += scores[j] * fusecc_bf16_to_float(v_cache[cb][j][kh][d]);
				out[b][h][d] = fusecc_float_to_bf16(acc * inv_l);
			}
		}
}
