/* FlashMLA's decode interface (flash_mla_with_kvcache) written as loops: DeepSeek-V3's 128
 * query heads, absorbed (q is q_nope . W_UK, 512, then q_pe, 64); a paged latent cache of
 * 64-token blocks, one 576-wide row per token (c_kv, then k_pe), a block table and the
 * lengths per sequence; the value is a row's first 512 columns; the output and the
 * softmax's log-sum-exp per head. bf16. */
#include <math.h>
#include "fusecc.h"

#define H 128
#define DK 576
#define DV 512
#define PAGE 64

void flash_mla_decode(int B, int NBLK, int MAXB, float softmax_scale, const int cache_seqlens[B],
		      const int block_table[B][MAXB], const fusecc_bf16 q[B][H][DK],
		      const fusecc_bf16 kcache[NBLK][PAGE][DK], fusecc_bf16 o[B][H][DV], float lse[B][H])
{
#pragma fuse kernel(flash_mla_decode) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			int n = cache_seqlens[b];
			float m = -INFINITY;
			float l = 0.0f;
			float acc[DV];
			for (int d = 0; d < DV; d++)
				acc[d] = 0.0f;
			for (int t = 0; t < n; t++) {
				const fusecc_bf16 *k = kcache[block_table[b][t / PAGE]][t % PAGE];
				float s = 0.0f;
				for (int d = 0; d < DK; d++)
					s += fusecc_bf16_to_float(q[b][h][d]) * fusecc_bf16_to_float(k[d]);
				s *= softmax_scale;
				float m_new = fmaxf(m, s);
				float c = expf(m - m_new);
				float p = expf(s - m_new);
				l = l * c + p;
				for (int d = 0; d < DV; d++)
					acc[d] = acc[d] * c + p * fusecc_bf16_to_float(k[d]);
				m = m_new;
			}
			for (int d = 0; d < DV; d++)
				o[b][h][d] = fusecc_float_to_bf16(n > 0 ? acc[d] / l : 0.0f);
			lse[b][h] = n > 0 ? m + logf(l) : INFINITY;
		}
}
