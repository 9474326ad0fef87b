/* Decode with the KV head written kv_head = h * KVH / H (HF-TGI style "head_idx * num_kv_heads //
 * num_heads"), bf16 cache, D=128, per-sequence lengths int64. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void decode_kvh(int B, int H, int KVH, int L, const int64_t seqlen[B], const fusecc_bf16 q[B][H][128],
		const fusecc_bf16 k[B][KVH][L][128], const fusecc_bf16 v[B][KVH][L][128], fusecc_bf16 o[B][H][128])
{
#pragma fuse kernel(decode_kvh) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int kvh = h * KVH / H;
			float m = -INFINITY, l = 0.0f, acc[128];
			for (int d = 0; d < 128; d++) acc[d] = 0.0f;
			for (int j = 0; j < seqlen[b]; j++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += fusecc_bf16_to_float(q[b][h][d]) * fusecc_bf16_to_float(k[b][kvh][j][d]);
				s *= 0.08838834764831845f;
				float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * fusecc_bf16_to_float(v[b][kvh][j][d]);
				m = mn;
			}
			for (int d = 0; d < 128; d++) o[b][h][d] = fusecc_float_to_bf16(acc[d] / l);
		}
}
