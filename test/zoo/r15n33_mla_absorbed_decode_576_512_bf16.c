/* DeepSeek-V3 MLA decode in the absorbed form (FlashMLA's reference): the latent cache
 * ckv[L][512] is both key (with k_pe[L][64]) and value; q_nope already absorbed to 512;
 * scale 1/sqrt(192); one latent head shared by all H query heads. bf16. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void mla_absorbed_decode(int B, int H, int L, const int32_t cache_seqlens[B],
			 const fusecc_bf16 q_nope[B][H][512], const fusecc_bf16 q_pe[B][H][64],
			 const fusecc_bf16 ckv[B][L][512], const fusecc_bf16 kpe[B][L][64],
			 fusecc_bf16 o[B][H][512])
{
	const float scale = 0.07216878364870322f;
#pragma fuse kernel(mla_absorbed_decode) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float s[L];
			float m = -INFINITY;
			for (int t = 0; t < cache_seqlens[b]; t++) {
				float a = 0.0f;
				for (int d = 0; d < 512; d++)
					a += fusecc_bf16_to_float(q_nope[b][h][d]) * fusecc_bf16_to_float(ckv[b][t][d]);
				for (int d = 0; d < 64; d++)
					a += fusecc_bf16_to_float(q_pe[b][h][d]) * fusecc_bf16_to_float(kpe[b][t][d]);
				s[t] = a * scale;
				m = fmaxf(m, s[t]);
			}
			float l = 0.0f;
			for (int t = 0; t < cache_seqlens[b]; t++) { s[t] = expf(s[t] - m); l += s[t]; }
			for (int d = 0; d < 512; d++) {
				float acc = 0.0f;
				for (int t = 0; t < cache_seqlens[b]; t++) acc += s[t] * fusecc_bf16_to_float(ckv[b][t][d]);
				o[b][h][d] = fusecc_float_to_bf16(acc / l);
			}
		}
}
