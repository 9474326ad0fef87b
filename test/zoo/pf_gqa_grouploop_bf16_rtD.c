/* pf_gqa_grouploop_bf16_rtD.c: GQA causal prefill written with a group loop: for each KV
 * head kh, its G query heads g; the query head index is kh * G + g in a plain
 * [B][HKV * G][N][D] query tensor.
 * Style: bf16 storage, run-time `int D`, triangular j <= i, stored scores, max as a
 * ternary from -INFINITY, sum and j-outer P.V in one loop reading s[j] (exp recomputed
 * there), acc as a VLA acc[D]. parallel(b, kh, g, i), tile(i:128, j:64), rolling(j). */
#include <math.h>
#include "fusecc.h"

void gqa_group_bf16(int B, int HKV, int G, int N, int D, float scale,
		    const fusecc_bf16 q[B][HKV * G][N][D], const fusecc_bf16 k[B][HKV][N][D],
		    const fusecc_bf16 v[B][HKV][N][D], fusecc_bf16 o[B][HKV * G][N][D])
{
#pragma fuse kernel(gqa_group_bf16) parallel(b, kh, g, i) tile(i:128, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < HKV; kh++)
			for (int g = 0; g < G; g++)
				for (int i = 0; i < N; i++) {
					float s[N];
					for (int j = 0; j <= i; j++) {
						float dot = 0.0f;
						for (int d = 0; d < D; d++)
							dot += fusecc_bf16_to_float(q[b][kh * G + g][i][d]) *
							       fusecc_bf16_to_float(k[b][kh][j][d]);
						s[j] = dot * scale;
					}
					float m = -INFINITY;
					for (int j = 0; j <= i; j++)
						m = m > s[j] ? m : s[j];
					float l = 0.0f;
					float acc[D];
					for (int d = 0; d < D; d++)
						acc[d] = 0.0f;
					for (int j = 0; j <= i; j++) {
						float e = expf(s[j] - m);
						l += e;
						for (int d = 0; d < D; d++)
							acc[d] += e * fusecc_bf16_to_float(v[b][kh][j][d]);
					}
					for (int d = 0; d < D; d++)
						o[b][kh * G + g][i][d] = fusecc_float_to_bf16(acc[d] / l);
				}
}
