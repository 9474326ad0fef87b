/* dc_gqa_group_parallel_kvlen_fp16.c: GQA decode over a contiguous cache with a
 * per-sequence length, the KV head's query heads as a loop listed in parallel(b, kh, g)
 * (every (b, kh, g) is independent, so the author lists all three), no clause.
 * Style: a port of a reference decode that says what is parallel and leaves the
 * schedule to fusecc: fp16, D = 128, stored scores s[S] over `j < kv_len[b]`, the max
 * and the sum in one loop each, P.V with d outside j, normalised after. */
#include <math.h>

void gqa_decode_kvlen(int B, int KVH, int G, int S, const int kv_len[B],
		      const _Float16 q[B][KVH][G][128], const _Float16 k[B][KVH][S][128],
		      const _Float16 v[B][KVH][S][128], float scale, _Float16 o[B][KVH][G][128])
{
#pragma fuse kernel(gqa_decode_kvlen) parallel(b, kh, g)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < KVH; kh++)
			for (int g = 0; g < G; g++) {
				float s[S];
				for (int j = 0; j < kv_len[b]; j++) {
					float dot = 0.0f;
					for (int d = 0; d < 128; d++)
						dot += (float)q[b][kh][g][d] * (float)k[b][kh][j][d];
					s[j] = dot * scale;
				}
				float m = -INFINITY;
				for (int j = 0; j < kv_len[b]; j++)
					m = fmaxf(m, s[j]);
				float l = 0.0f;
				for (int j = 0; j < kv_len[b]; j++)
					l += expf(s[j] - m);
				for (int d = 0; d < 128; d++) {
					float acc = 0.0f;
					for (int j = 0; j < kv_len[b]; j++)
						acc += expf(s[j] - m) * (float)v[b][kh][j][d];
					o[b][kh][g][d] = (_Float16)(acc / l);
				}
			}
}
