/* GQA decode written by a CUDA kernel author: the group loop g over the query heads of a kv
 * head is named in parallel(b, kh, g); kv lengths int64; no split clause. */
#include <math.h>
#include <stdint.h>

void gqa_decode_groups(int B, int KVH, int G, int L, const int64_t kv_len[B],
		       const _Float16 q[B][KVH][G][128], const _Float16 k[B][KVH][L][128],
		       const _Float16 v[B][KVH][L][128], _Float16 o[B][KVH][G][128])
{
#pragma fuse kernel(gqa_decode_groups) parallel(b, kh, g)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < KVH; kh++)
			for (int g = 0; g < G; g++) {
				float s[L];
				float m = -INFINITY;
				for (int64_t j = 0; j < kv_len[b]; j++) {
					float x = 0.0f;
					for (int d = 0; d < 128; d++) x += (float)q[b][kh][g][d] * (float)k[b][kh][j][d];
					s[j] = x * 0.08838834764831845f;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int64_t j = 0; j < kv_len[b]; j++) { s[j] = expf(s[j] - m); l += s[j]; }
				for (int d = 0; d < 128; d++) {
					float a = 0.0f;
					for (int64_t j = 0; j < kv_len[b]; j++) a += s[j] * (float)v[b][kh][j][d];
					o[b][kh][g][d] = (_Float16)(a / l);
				}
			}
}
