/* Grouped-query attention (prefill, non-causal), bf16, HEAD_DIM 128. Query heads are indexed
 * as kvh * G + g, i.e. an explicit group loop over the G query heads sharing one KV head.
 * Style: loop names qi / kj; sm_scale passed in; fmaxf; scores recomputed per pass;
 * P.V with d outer recomputing p from a stored score row. */
#include <math.h>
#include "fusecc.h"

#define HEAD_DIM 128

void gqa_grouped(int B, int KVH, int G, int N, float sm_scale,
		 const fusecc_bf16 q[B][KVH * G][N][HEAD_DIM],
		 const fusecc_bf16 k[B][KVH][N][HEAD_DIM],
		 const fusecc_bf16 v[B][KVH][N][HEAD_DIM],
		 fusecc_bf16 o[B][KVH * G][N][HEAD_DIM])
{
#pragma fuse kernel(gqa_grouped) parallel(b, kvh, g, qi) rolling(kj)
	for (int b = 0; b < B; b++)
		for (int kvh = 0; kvh < KVH; kvh++)
			for (int g = 0; g < G; g++)
				for (int qi = 0; qi < N; qi++) {
					float score[N];
					float mx = -INFINITY;
					for (int kj = 0; kj < N; kj++) {
						float acc = 0.0f;
						for (int d = 0; d < HEAD_DIM; d++)
							acc += fusecc_bf16_to_float(q[b][kvh * G + g][qi][d]) *
							       fusecc_bf16_to_float(k[b][kvh][kj][d]);
						score[kj] = acc * sm_scale;
						mx = fmaxf(mx, score[kj]);
					}
					float sum = 0.0f;
					for (int kj = 0; kj < N; kj++)
						sum += expf(score[kj] - mx);
					for (int d = 0; d < HEAD_DIM; d++) {
						float acc = 0.0f;
						for (int kj = 0; kj < N; kj++)
							acc += expf(score[kj] - mx) *
							       fusecc_bf16_to_float(v[b][kvh][kj][d]);
						o[b][kvh * G + g][qi][d] = fusecc_float_to_bf16(acc / sum);
					}
				}
}
