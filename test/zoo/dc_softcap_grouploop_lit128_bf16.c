/* dc_softcap_grouploop_lit128_bf16.c: Gemma-2-style decode with logit soft-capping and
 * grouped KV heads, bf16.
 * Style: head dim 128 as a literal in every extent and loop, group loop (kh, g) with
 * separate [B][HKV][G][128] query / output dims, the cap as a float parameter written
 * cap * tanhf(s / cap) after scaling, stored scores, max as a ternary from -INFINITY,
 * j-outer P.V into acc[128], normalised after. splitk(j), parallel(b, kh). */
#include <math.h>
#include "fusecc.h"

void softcap_decode(int B, int HKV, int G, int L, float scale, float cap,
		    const fusecc_bf16 q[B][HKV][G][128], const fusecc_bf16 k[B][HKV][L][128],
		    const fusecc_bf16 v[B][HKV][L][128], fusecc_bf16 o[B][HKV][G][128])
{
#pragma fuse kernel(softcap_decode) parallel(b, kh) splitk(j)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < HKV; kh++)
			for (int g = 0; g < G; g++) {
				float s[L];
				for (int j = 0; j < L; j++) {
					float dot = 0.0f;
					for (int d = 0; d < 128; d++)
						dot += fusecc_bf16_to_float(q[b][kh][g][d]) * fusecc_bf16_to_float(k[b][kh][j][d]);
					dot = dot * scale;
					s[j] = cap * tanhf(dot / cap);
				}
				float m = -INFINITY;
				for (int j = 0; j < L; j++)
					m = m > s[j] ? m : s[j];
				float l = 0.0f;
				for (int j = 0; j < L; j++)
					l += expf(s[j] - m);
				float acc[128];
				for (int d = 0; d < 128; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < L; j++) {
					float w = expf(s[j] - m);
					for (int d = 0; d < 128; d++)
						acc[d] += w * fusecc_bf16_to_float(v[b][kh][j][d]);
				}
				for (int d = 0; d < 128; d++)
					o[b][kh][g][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
