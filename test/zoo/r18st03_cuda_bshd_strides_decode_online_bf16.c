/* A CUDA programmer's reference for a decode kernel over a KV cache laid out
 * [batch][seq][head][dim] and passed as a view with its strides (the cache may be a slice
 * of a bigger buffer), online softmax, run-time lengths per batch. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void decode_ref(const fusecc_bf16 *q, const fusecc_bf16 *kcache, const fusecc_bf16 *vcache, const int32_t *seqlens,
		fusecc_bf16 *out, int B, int H, int64_t q_bstride, int64_t kv_bstride, int64_t kv_sstride, int64_t o_bstride, float scale)
{
#pragma fuse kernel(decode_ref) parallel(b, h) rolling(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[128];
			for (int d = 0; d < 128; d++)
				acc[d] = 0.0f;
			for (int t = 0; t < seqlens[b]; t++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += fusecc_bf16_to_float(q[b * q_bstride + h * 128 + d]) * fusecc_bf16_to_float(kcache[b * kv_bstride + t * kv_sstride + h * 128 + d]);
				s *= scale;
				float mn = fmaxf(m, s);
				float c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 128; d++)
					acc[d] = acc[d] * c + p * fusecc_bf16_to_float(vcache[b * kv_bstride + t * kv_sstride + h * 128 + d]);
				m = mn;
			}
			for (int d = 0; d < 128; d++)
				out[b * o_bstride + h * 128 + d] = fusecc_float_to_bf16(acc[d] / l);
		}
}
