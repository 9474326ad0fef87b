/* flax.linen.dot_product_attention ported: query = query / sqrt(depth); einsum('...qhd,...khd->...hqk');
 * + bias[b][h][q][k]; where(mask, w, big_neg = finfo(f32).min); softmax(f32); einsum('...hqk,...khd->...qhd'). bf16 bqhd. */
#include <math.h>
#include <stdbool.h>
#include "fusecc.h"
void flax_dpa(int batch, int q_length, int kv_length, int num_heads, const fusecc_bf16 query[batch][q_length][num_heads][64],
	      const fusecc_bf16 key[batch][kv_length][num_heads][64], const fusecc_bf16 value[batch][kv_length][num_heads][64],
	      const float bias[batch][num_heads][q_length][kv_length], const bool mask[batch][1][q_length][kv_length],
	      fusecc_bf16 out[batch][q_length][num_heads][64])
{
	const float depth_rsqrt = 1.0f / sqrtf(64.0f);
	const float big_neg = -3.4028234663852886e38f;
#pragma fuse kernel(flax_dpa) parallel(b, qi, h)
	for (int b = 0; b < batch; b++)
		for (int qi = 0; qi < q_length; qi++)
			for (int h = 0; h < num_heads; h++) {
				float qs[64];
				for (int d = 0; d < 64; d++) qs[d] = fusecc_bf16_to_float(query[b][qi][h][d]) * depth_rsqrt;
				float w[kv_length];
				for (int ki = 0; ki < kv_length; ki++) {
					float x = 0.0f;
					for (int d = 0; d < 64; d++) x += qs[d] * fusecc_bf16_to_float(key[b][ki][h][d]);
					x += bias[b][h][qi][ki];
					w[ki] = mask[b][0][qi][ki] ? x : big_neg;
				}
				float wmax = -INFINITY;
				for (int ki = 0; ki < kv_length; ki++) wmax = fmaxf(wmax, w[ki]);
				float wsum = 0.0f;
				for (int ki = 0; ki < kv_length; ki++) { w[ki] = expf(w[ki] - wmax); wsum += w[ki]; }
				for (int d = 0; d < 64; d++) {
					float y = 0.0f;
					for (int ki = 0; ki < kv_length; ki++) y += (w[ki] / wsum) * fusecc_bf16_to_float(value[b][ki][h][d]);
					out[b][qi][h][d] = fusecc_float_to_bf16(y);
				}
			}
}
