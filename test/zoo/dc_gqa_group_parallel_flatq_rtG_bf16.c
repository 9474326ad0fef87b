/* dc_gqa_group_parallel_flatq_rtG_bf16.c: GQA decode with the query heads flat,
 * q[b][kh * G + g][D] of a [B][KVH * G][D] tensor (HF's [B, H, D] after the view), a
 * run-time group size G and the group loop listed in parallel(b, kh, g); splitk(j).
 * Style: bf16 storage through fusecc.h (fusecc_bf16_to_float, fusecc_float_to_bf16),
 * `#define D 128`, online softmax in one pass (m, l and acc[D] rescaled by hand at
 * every key), `s *= sm_scale` after the dot. */
#include <math.h>
#include "fusecc.h"

#define D 128

void gqa_decode_flatq(int B, int KVH, int G, int L, float sm_scale,
		      const fusecc_bf16 q[B][KVH * G][D], const fusecc_bf16 k[B][KVH][L][D],
		      const fusecc_bf16 v[B][KVH][L][D], fusecc_bf16 o[B][KVH * G][D])
{
#pragma fuse kernel(gqa_decode_flatq) parallel(b, kh, g) splitk(j)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < KVH; kh++)
			for (int g = 0; g < G; g++) {
				float m = -INFINITY, l = 0.0f;
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < L; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += fusecc_bf16_to_float(q[b][kh * G + g][d]) * fusecc_bf16_to_float(k[b][kh][j][d]);
					s *= sm_scale;
					float m_new = fmaxf(m, s);
					float corr = expf(m - m_new);
					float p = expf(s - m_new);
					l = l * corr + p;
					for (int d = 0; d < D; d++)
						acc[d] = acc[d] * corr + p * fusecc_bf16_to_float(v[b][kh][j][d]);
					m = m_new;
				}
				for (int d = 0; d < D; d++)
					o[b][kh * G + g][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
