/* GQA decode where only (b, kvh) are parallel and the group of query heads is a loop in the body, so
 * K and V rows are read once per group (the way one writes it to reuse the loads on a CPU). Query and
 * output heads are flat: h = kvh * G + g. */
#include <math.h>
#include "fusecc.h"

void gqa_decode_grp(int B, int KVH, int G, int T, const fusecc_bf16 q[B][KVH * G][64], const fusecc_bf16 k[B][T][KVH][64],
		    const fusecc_bf16 v[B][T][KVH][64], fusecc_bf16 o[B][KVH * G][64])
{
#pragma fuse kernel(gqa_decode_grp) parallel(b, kvh)
	for (int b = 0; b < B; b++)
		for (int kvh = 0; kvh < KVH; kvh++)
			for (int g = 0; g < G; g++) {
				const int h = kvh * G + g;
				float m = -INFINITY, l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int t = 0; t < T; t++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += fusecc_bf16_to_float(q[b][h][d]) * fusecc_bf16_to_float(k[b][t][kvh][d]);
					s *= 0.125f;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * fusecc_bf16_to_float(v[b][t][kvh][d]);
					m = mn;
				}
				for (int d = 0; d < 64; d++) o[b][h][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
