/* flash_attn_varlen_func-style causal prefill over S packed sequences, bf16: token rows of all
 * sequences are concatenated, sequence s occupies rows [cu_seqlens[s], cu_seqlens[s+1]).
 * Style: int32 cu_seqlens[S + 1]; bounds i < cu[s+1] - cu[s] and j <= i; packed reads AND the
 * packed output write o[cu_seqlens[s] + i]; int D; scale before the loop; acc[D]; rolling(j). */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void varlen_causal(int S, int TOTAL, int H, int D, const int32_t cu_seqlens[S + 1],
		   const fusecc_bf16 q[TOTAL][H][D], const fusecc_bf16 k[TOTAL][H][D],
		   const fusecc_bf16 v[TOTAL][H][D], fusecc_bf16 o[TOTAL][H][D])
{
	const float scale = 1.0f / sqrtf((float)D);

#pragma fuse kernel(varlen_causal) parallel(s, h, i) rolling(j)
	for (int s = 0; s < S; s++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < cu_seqlens[s + 1] - cu_seqlens[s]; i++) {
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float x = 0.0f;
					for (int d = 0; d < D; d++)
						x += fusecc_bf16_to_float(q[cu_seqlens[s] + i][h][d]) *
						     fusecc_bf16_to_float(k[cu_seqlens[s] + j][h][d]);
					m = fmaxf(m, x * scale);
				}
				float l = 0.0f;
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float x = 0.0f;
					for (int d = 0; d < D; d++)
						x += fusecc_bf16_to_float(q[cu_seqlens[s] + i][h][d]) *
						     fusecc_bf16_to_float(k[cu_seqlens[s] + j][h][d]);
					float p = expf(x * scale - m);
					l += p;
					for (int d = 0; d < D; d++)
						acc[d] += p * fusecc_bf16_to_float(v[cu_seqlens[s] + j][h][d]);
				}
				for (int d = 0; d < D; d++)
					o[cu_seqlens[s] + i][h][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
