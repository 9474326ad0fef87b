/* DeepSeek MLA decode, absorbed, as FlashMLA's test reference (ref_mla) lays it out: the
 * query is q_nope (absorbed to 512) and q_pe concatenated, 576 wide; the cache holds one
 * 576-wide row per token, the latent c_kv in its first 512 columns and k_pe in its last
 * 64; the value is the cache's first 512 columns. One latent head for all H query heads,
 * the softmax scale given at run time, lengths per sequence. fp16. */
#include <math.h>

#define DK 576
#define DV 512

void mla_decode_kv576(int B, int H, int L, float softmax_scale, const int cache_seqlens[B],
		      const _Float16 q[B][H][DK], const _Float16 kv[B][L][DK], _Float16 o[B][H][DV])
{
#pragma fuse kernel(mla_decode_kv576) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			int n = cache_seqlens[b];
			float m = -INFINITY;
			for (int t = 0; t < n; t++) {
				float s = 0.0f;
				for (int d = 0; d < DK; d++)
					s += (float)q[b][h][d] * (float)kv[b][t][d];
				m = fmaxf(m, s * softmax_scale);
			}
			float l = 0.0f;
			float acc[DV] = {0};
			for (int t = 0; t < n; t++) {
				float s = 0.0f;
				for (int d = 0; d < DK; d++)
					s += (float)q[b][h][d] * (float)kv[b][t][d];
				float p = expf(s * softmax_scale - m);
				l += p;
				for (int d = 0; d < DV; d++)
					acc[d] += p * (float)kv[b][t][d];
			}
			for (int d = 0; d < DV; d++)
				o[b][h][d] = n > 0 ? (_Float16)(acc[d] / l) : (_Float16)0.0f;
		}
}
