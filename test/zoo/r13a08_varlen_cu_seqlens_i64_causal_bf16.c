/* FlashAttention varlen: packed tokens, cu_seqlens int64 (PyTorch's default), causal within
 * each sequence, heads in the middle [TOTAL][H][128]. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void varlen_fwd(int NSEQ, int TOTAL, int H, float scale, const int64_t cu_seqlens[NSEQ + 1],
		const fusecc_bf16 q[TOTAL][H][128], const fusecc_bf16 k[TOTAL][H][128],
		const fusecc_bf16 v[TOTAL][H][128], fusecc_bf16 o[TOTAL][H][128])
{
#pragma fuse kernel(varlen_fwd) parallel(s, h, i) rolling(j)
	for (int s = 0; s < NSEQ; s++)
		for (int h = 0; h < H; h++)
			for (int64_t i = cu_seqlens[s]; i < cu_seqlens[s + 1]; i++) {
				float m = -INFINITY, l = 0.0f;
				float acc[128];
				for (int d = 0; d < 128; d++) acc[d] = 0.0f;
				for (int64_t j = cu_seqlens[s]; j <= i; j++) {
					float sc = 0.0f;
					for (int d = 0; d < 128; d++)
						sc += fusecc_bf16_to_float(q[i][h][d]) * fusecc_bf16_to_float(k[j][h][d]);
					m = fmaxf(m, sc * scale);
				}
				for (int64_t j = cu_seqlens[s]; j <= i; j++) {
					float sc = 0.0f;
					for (int d = 0; d < 128; d++)
						sc += fusecc_bf16_to_float(q[i][h][d]) * fusecc_bf16_to_float(k[j][h][d]);
					float p = expf(sc * scale - m);
					l += p;
					for (int d = 0; d < 128; d++)
						acc[d] += p * fusecc_bf16_to_float(v[j][h][d]);
				}
				for (int d = 0; d < 128; d++)
					o[i][h][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
