/* dc_gqa_group_parallel_bshd_lenlocal_bf16.c: GQA decode over a BSHD cache
 * (k[b][t][kh][D], as PyTorch's [B, S, H_kv, D] KV cache is laid out), the sequence
 * length copied to a local first, the group loop in parallel(b, kh, g), no clause.
 * Style: bf16, D = 128 as a literal, scores recomputed in each of the three passes
 * (max, sum, P.V), the P.V normalised by multiplying with 1 / l. */
#include <math.h>
#include "fusecc.h"

void gqa_decode_bshd(int B, int KVH, int G, int S, const int seq_lens[B],
		     const fusecc_bf16 q[B][KVH][G][128], const fusecc_bf16 k[B][S][KVH][128],
		     const fusecc_bf16 v[B][S][KVH][128], float scale, fusecc_bf16 o[B][KVH][G][128])
{
#pragma fuse kernel(gqa_decode_bshd) parallel(b, kh, g)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < KVH; kh++)
			for (int g = 0; g < G; g++) {
				const int len = seq_lens[b];
				float m = -INFINITY;
				for (int t = 0; t < len; t++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += fusecc_bf16_to_float(q[b][kh][g][d]) * fusecc_bf16_to_float(k[b][t][kh][d]);
					m = fmaxf(m, s * scale);
				}
				float l = 0.0f;
				for (int t = 0; t < len; t++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += fusecc_bf16_to_float(q[b][kh][g][d]) * fusecc_bf16_to_float(k[b][t][kh][d]);
					l += expf(s * scale - m);
				}
				float acc[128] = {0};
				for (int t = 0; t < len; t++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += fusecc_bf16_to_float(q[b][kh][g][d]) * fusecc_bf16_to_float(k[b][t][kh][d]);
					float p = expf(s * scale - m);
					for (int d = 0; d < 128; d++)
						acc[d] += p * fusecc_bf16_to_float(v[b][t][kh][d]);
				}
				const float inv = 1.0f / l;
				for (int d = 0; d < 128; d++)
					o[b][kh][g][d] = fusecc_float_to_bf16(acc[d] * inv);
			}
}
