/* Decode, parallel over (b, kvh) only; the query heads of the group are a loop inside the body
 * (outside the parallel clause). Scale written with double literals: 1.0 / sqrt(D). bf16. */
#include <math.h>
#include "fusecc.h"
#define HEAD_DIM 128

void mqa_group_decode(int B, int KVH, int G, int T, const fusecc_bf16 q[B][KVH * G][HEAD_DIM],
		      const fusecc_bf16 k[B][KVH][T][HEAD_DIM], const fusecc_bf16 v[B][KVH][T][HEAD_DIM],
		      fusecc_bf16 o[B][KVH * G][HEAD_DIM])
{
	const float scale = 1.0 / sqrt(HEAD_DIM);
#pragma fuse kernel(mqa_group_decode) parallel(b, kvh) splitk(t)
	for (int b = 0; b < B; b++)
		for (int kvh = 0; kvh < KVH; kvh++)
			for (int g = 0; g < G; g++) {
				const int qh = kvh * G + g;
				float m = -INFINITY;
				for (int t = 0; t < T; t++) {
					float s = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++)
						s += fusecc_bf16_to_float(q[b][qh][d]) * fusecc_bf16_to_float(k[b][kvh][t][d]);
					m = fmaxf(m, s * scale);
				}
				float l = 0.0f;
				float acc[HEAD_DIM] = {0};
				for (int t = 0; t < T; t++) {
					float s = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++)
						s += fusecc_bf16_to_float(q[b][qh][d]) * fusecc_bf16_to_float(k[b][kvh][t][d]);
					float p = expf(s * scale - m);
					l += p;
					for (int d = 0; d < HEAD_DIM; d++) acc[d] += p * fusecc_bf16_to_float(v[b][kvh][t][d]);
				}
				for (int d = 0; d < HEAD_DIM; d++) o[b][qh][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
