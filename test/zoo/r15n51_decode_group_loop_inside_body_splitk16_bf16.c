/* GQA decode by a kernel writer who loops over the G query heads of a kv head inside the body
 * (not a parallel loop), parallel(b, kh) splitk(j:16); bf16; cache length int32. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void gqa_dec_inner(int B, int KVH, int G, int L, const int32_t cache_len[B],
		   const fusecc_bf16 q[B][KVH][G][128], const fusecc_bf16 k[B][KVH][L][128],
		   const fusecc_bf16 v[B][KVH][L][128], fusecc_bf16 o[B][KVH][G][128])
{
#pragma fuse kernel(gqa_dec_inner) parallel(b, kh) splitk(j:16)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < KVH; kh++)
			for (int g = 0; g < G; g++) {
				float m = -INFINITY, l = 0.0f, acc[128];
				for (int d = 0; d < 128; d++) acc[d] = 0.0f;
				for (int j = 0; j < cache_len[b]; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += fusecc_bf16_to_float(q[b][kh][g][d]) * fusecc_bf16_to_float(k[b][kh][j][d]);
					s *= 0.08838834764831845f;
					const float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * fusecc_bf16_to_float(v[b][kh][j][d]);
					m = mn;
				}
				for (int d = 0; d < 128; d++) o[b][kh][g][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
