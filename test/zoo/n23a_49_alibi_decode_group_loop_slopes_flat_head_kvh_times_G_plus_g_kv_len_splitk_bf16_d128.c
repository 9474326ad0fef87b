/* ALiBi in a GQA decode written with the group loop (K/V of one KV head loaded once for
 * its G query heads): query head kvh * G + g has slope slopes[kvh * G + g]; bias
 * slope * (t - (len - 1)) relative to the newest key. kv_len per sequence. bf16. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void alibi_gqa_decode(int B, int KVH, int G, int L, const fusecc_bf16 q[B][KVH * G][128],
		      const fusecc_bf16 kc[B][KVH][L][128], const fusecc_bf16 vc[B][KVH][L][128], const float slopes[KVH * G],
		      const int32_t kv_len[B], fusecc_bf16 o[B][KVH * G][128])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(alibi_gqa_decode) parallel(b, kvh, g) splitk(t)
	for (int b = 0; b < B; b++)
		for (int kvh = 0; kvh < KVH; kvh++)
			for (int g = 0; g < G; g++) {
				const int hq = kvh * G + g;
				const float slope = slopes[hq];
				const int len = kv_len[b];
				float m = -INFINITY, l = 0.0f, acc[128] = {0};
				for (int t = 0; t < len; t++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += fusecc_bf16_to_float(q[b][hq][d]) * fusecc_bf16_to_float(kc[b][kvh][t][d]);
					s = s * scale + slope * (float)(t - (len - 1));
					float mn = fmaxf(m, s);
					float c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++)
						acc[d] = acc[d] * c + p * fusecc_bf16_to_float(vc[b][kvh][t][d]);
					m = mn;
				}
				for (int d = 0; d < 128; d++)
					o[b][hq][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
