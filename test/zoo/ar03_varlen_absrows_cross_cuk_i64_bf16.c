/* ar03_varlen_absrows_cross_cuk_i64_bf16.c: cross attention (or chunked prefill against
 * a packed cache) over packed batches with separate offsets for the queries and the keys
 * (flash_attn_varlen_func's cu_seqlens_q and cu_seqlens_k), not causal, bf16, head dim 64.
 * Style: absolute rows on both sides, `for (t = cu_q[b]; t < cu_q[b + 1]; t++)` and
 * `for (u = cu_k[b]; u < cu_k[b + 1]; u++)`, int64 offsets and iterators as torch's
 * cumsum gives them, the bf16 helpers of fusecc.h. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void cross_varlen(int64_t batch, int64_t TQ, int64_t TK, int64_t H, float scale,
		  const int64_t cu_q[batch + 1], const int64_t cu_k[batch + 1],
		  const fusecc_bf16 q[TQ][H][64], const fusecc_bf16 k[TK][H][64],
		  const fusecc_bf16 v[TK][H][64], fusecc_bf16 o[TQ][H][64])
{
#pragma fuse kernel(cross_varlen) parallel(b, h, t) rolling(u)
	for (int64_t b = 0; b < batch; b++)
		for (int64_t h = 0; h < H; h++)
			for (int64_t t = cu_q[b]; t < cu_q[b + 1]; t++) {
				float mx = -INFINITY;
				for (int64_t u = cu_k[b]; u < cu_k[b + 1]; u++) {
					float sc = 0.0f;
					for (int d = 0; d < 64; d++)
						sc += fusecc_bf16_to_float(q[t][h][d]) * fusecc_bf16_to_float(k[u][h][d]);
					mx = fmaxf(mx, sc * scale);
				}
				float sum = 0.0f, acc[64];
				for (int d = 0; d < 64; d++)
					acc[d] = 0.0f;
				for (int64_t u = cu_k[b]; u < cu_k[b + 1]; u++) {
					float sc = 0.0f;
					for (int d = 0; d < 64; d++)
						sc += fusecc_bf16_to_float(q[t][h][d]) * fusecc_bf16_to_float(k[u][h][d]);
					float p = expf(sc * scale - mx);
					sum += p;
					for (int d = 0; d < 64; d++)
						acc[d] += p * fusecc_bf16_to_float(v[u][h][d]);
				}
				for (int d = 0; d < 64; d++)
					o[t][h][d] = fusecc_float_to_bf16(acc[d] / sum);
			}
}
