/* Gemma 2 decode on a sliding layer with HF's HybridCache: the layer's cache is a ring of W slots
 * (slot = position % W), so the keys are the first min(pos + 1, W) slots in any order; softcap 50,
 * scale query_pre_attn_scalar ** -0.5 (= 1/16 for 256); GQA by h / G; split-k clause. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void gemma2_ring_decode(int B, int H, int G, int W, const int64_t cache_position[B], const fusecc_bf16 q[B][H][256],
			const fusecc_bf16 k_ring[B][H / G][W][256], const fusecc_bf16 v_ring[B][H / G][W][256],
			fusecc_bf16 o[B][H][256])
{
#pragma fuse kernel(gemma2_ring_decode) parallel(b, h) splitk(s)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int nvalid = cache_position[b] + 1 < W ? (int)cache_position[b] + 1 : W;
			float logits[W];
			float mx = -INFINITY;
			for (int s = 0; s < nvalid; s++) {
				float dot = 0.0f;
				for (int d = 0; d < 256; d++)
					dot += fusecc_bf16_to_float(q[b][h][d]) * fusecc_bf16_to_float(k_ring[b][h / G][s][d]);
				float x = dot * 0.0625f;
				x = 50.0f * tanhf(x / 50.0f);
				logits[s] = x;
				mx = fmaxf(mx, x);
			}
			float sum = 0.0f;
			for (int s = 0; s < nvalid; s++) sum += expf(logits[s] - mx);
			for (int d = 0; d < 256; d++) {
				float acc = 0.0f;
				for (int s = 0; s < nvalid; s++) acc += expf(logits[s] - mx) * fusecc_bf16_to_float(v_ring[b][h / G][s][d]);
				o[b][h][d] = fusecc_float_to_bf16(acc / sum);
			}
		}
}
