/* flash_attn_varlen_func reference: sequences packed along one token axis [total][H][D], cu_seqlens
 * as int64 (torch.cumsum default dtype), causal within each sequence, bf16. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void varlen_fwd(int batch, int total, int H, const int64_t cu_seqlens[batch + 1], const fusecc_bf16 q[total][H][64],
		const fusecc_bf16 k[total][H][64], const fusecc_bf16 v[total][H][64], fusecc_bf16 o[total][H][64])
{
#pragma fuse kernel(varlen_fwd) parallel(s, h, i)
	for (int s = 0; s < batch; s++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < cu_seqlens[s + 1] - cu_seqlens[s]; i++) {
				const int64_t start = cu_seqlens[s];
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int j = 0; j <= i; j++) {
					float x = 0.0f;
					for (int d = 0; d < 64; d++)
						x += fusecc_bf16_to_float(q[start + i][h][d]) * fusecc_bf16_to_float(k[start + j][h][d]);
					x *= 0.125f;
					float mn = fmaxf(m, x), c = expf(m - mn), p = expf(x - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * fusecc_bf16_to_float(v[start + j][h][d]);
					m = mn;
				}
				for (int d = 0; d < 64; d++) o[start + i][h][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
