/* GQA prefill written as (b, kvh, g, i): the group loop between the kv head and the query
 * rows, parallel(b, kh, g, i) naming all four; run-time D; causal via `j < i + 1`; bf16. */
#include <math.h>
#include "fusecc.h"

void gqa_prefill_grp(int B, int KVH, int G, int N, int D, const fusecc_bf16 q[B][KVH * G][N][D],
		     const fusecc_bf16 k[B][KVH][N][D], const fusecc_bf16 v[B][KVH][N][D],
		     fusecc_bf16 o[B][KVH * G][N][D])
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(gqa_prefill_grp) parallel(b, kh, g, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < KVH; kh++)
			for (int g = 0; g < G; g++)
				for (int i = 0; i < N; i++) {
					const int h = kh * G + g;
					float m = -INFINITY, l = 0.0f, acc[D];
					for (int d = 0; d < D; d++) acc[d] = 0.0f;
					for (int j = 0; j < i + 1; j++) {
						float s = 0.0f;
						for (int d = 0; d < D; d++)
							s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][kh][j][d]);
						s *= scale;
						const float mn = fmaxf(m, s);
						const float c = expf(m - mn);
						const float p = expf(s - mn);
						l = l * c + p;
						for (int d = 0; d < D; d++) acc[d] = acc[d] * c + p * fusecc_bf16_to_float(v[b][kh][j][d]);
						m = mn;
					}
					for (int d = 0; d < D; d++) o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
				}
}
