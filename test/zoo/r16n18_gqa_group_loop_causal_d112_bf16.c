/* Prefill with GQA written by a group loop innermost in the parallel loops and head dim 112
 * (a non-power-of-two dim: 7 x 16), causal, bf16, exp2f with log2(e) folded into the scale. */
#include <math.h>
#include "fusecc.h"

void gqa112(int B, int KVH, int G, int N, const fusecc_bf16 q[B][KVH][G][N][112], const fusecc_bf16 k[B][KVH][N][112],
	    const fusecc_bf16 v[B][KVH][N][112], fusecc_bf16 o[B][KVH][G][N][112])
{
	const float qk_scale = 1.4426950408889634f / sqrtf(112.0f);
#pragma fuse kernel(gqa112) parallel(b, kh, i, g) rolling(j)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < KVH; kh++)
			for (int i = 0; i < N; i++)
				for (int g = 0; g < G; g++) {
					float m = -INFINITY, l = 0.0f, acc[112];
					for (int d = 0; d < 112; d++) acc[d] = 0.0f;
					for (int j = 0; j <= i; j++) {
						float s = 0.0f;
						for (int d = 0; d < 112; d++)
							s += fusecc_bf16_to_float(q[b][kh][g][i][d]) * fusecc_bf16_to_float(k[b][kh][j][d]);
						s *= qk_scale;
						float mn = fmaxf(m, s), c = exp2f(m - mn), p = exp2f(s - mn);
						l = l * c + p;
						for (int d = 0; d < 112; d++) acc[d] = acc[d] * c + p * fusecc_bf16_to_float(v[b][kh][j][d]);
						m = mn;
					}
					for (int d = 0; d < 112; d++) o[b][kh][g][i][d] = fusecc_float_to_bf16(acc[d] / l);
				}
}
