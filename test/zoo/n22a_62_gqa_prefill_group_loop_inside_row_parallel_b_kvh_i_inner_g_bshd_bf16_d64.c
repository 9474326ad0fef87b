/* GQA prefill where a CPU programmer puts the group loop inside the query row (parallel(b, kvh, i),
 * for g in the body) so one K/V row serves G query heads; bshd layouts with flat heads kvh * G + g. */
#include <math.h>
#include "fusecc.h"

void gqa_prefill_inner(int B, int N, int KVH, int G, const fusecc_bf16 q[B][N][KVH * G][64], const fusecc_bf16 k[B][N][KVH][64],
		       const fusecc_bf16 v[B][N][KVH][64], fusecc_bf16 o[B][N][KVH * G][64])
{
#pragma fuse kernel(gqa_prefill_inner) parallel(b, kvh, i)
	for (int b = 0; b < B; b++)
		for (int kvh = 0; kvh < KVH; kvh++)
			for (int i = 0; i < N; i++)
				for (int g = 0; g < G; g++) {
					float m = -INFINITY, l = 0.0f, acc[64] = {0};
					for (int j = 0; j <= i; j++) {
						float s = 0.0f;
						for (int d = 0; d < 64; d++)
							s += fusecc_bf16_to_float(q[b][i][kvh * G + g][d]) * fusecc_bf16_to_float(k[b][j][kvh][d]);
						s *= 0.125f;
						float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
						l = l * c + p;
						for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * fusecc_bf16_to_float(v[b][j][kvh][d]);
						m = mn;
					}
					for (int d = 0; d < 64; d++) o[b][i][kvh * G + g][d] = fusecc_float_to_bf16(acc[d] / l);
				}
}
