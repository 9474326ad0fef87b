/* gpt-oss decode step: learned sink per head in the denominator, 128-token sliding window on the
 * cache (start = max(0, len - W)), GQA by h / (H / KVH), cache [B][T][KVH][64], split-k. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void gptoss_decode(int B, int H, int KVH, int T, int W, const int32_t kv_len[B], const float sinks[H],
		   const fusecc_bf16 q[B][H][64], const fusecc_bf16 kc[B][T][KVH][64], const fusecc_bf16 vc[B][T][KVH][64],
		   fusecc_bf16 o[B][H][64])
{
#pragma fuse kernel(gptoss_decode) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int kv = h / (H / KVH);
			const int len = kv_len[b];
			const int start = len - W > 0 ? len - W : 0;
			float m = sinks[h];
			for (int t = start; t < len; t++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += fusecc_bf16_to_float(q[b][h][d]) * fusecc_bf16_to_float(kc[b][t][kv][d]);
				m = fmaxf(m, s * 0.125f);
			}
			float denom = expf(sinks[h] - m), acc[64] = {0};
			for (int t = start; t < len; t++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += fusecc_bf16_to_float(q[b][h][d]) * fusecc_bf16_to_float(kc[b][t][kv][d]);
				const float p = expf(s * 0.125f - m);
				denom += p;
				for (int d = 0; d < 64; d++) acc[d] += p * fusecc_bf16_to_float(vc[b][t][kv][d]);
			}
			for (int d = 0; d < 64; d++) o[b][h][d] = fusecc_float_to_bf16(acc[d] / denom);
		}
}
