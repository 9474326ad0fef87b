/* Packed encoder batch (no padding), absolute token rows t = cu[s] .. cu[s+1], keys of the same
 * sequence u = cu[s] .. cu[s+1]; cu_seqlens int64; bidirectional; bf16; D=64. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void packed_encoder(int NS, int TOTAL, int H, const int64_t cu[NS + 1],
		    const fusecc_bf16 q[TOTAL][H][64], const fusecc_bf16 k[TOTAL][H][64],
		    const fusecc_bf16 v[TOTAL][H][64], fusecc_bf16 o[TOTAL][H][64])
{
#pragma fuse kernel(packed_encoder) parallel(s, t, h) rolling(u)
	for (int s = 0; s < NS; s++)
		for (int64_t t = cu[s]; t < cu[s + 1]; t++)
			for (int h = 0; h < H; h++) {
				float mx = -INFINITY;
				for (int64_t u = cu[s]; u < cu[s + 1]; u++) {
					float a = 0.0f;
					for (int d = 0; d < 64; d++)
						a += fusecc_bf16_to_float(q[t][h][d]) * fusecc_bf16_to_float(k[u][h][d]);
					mx = fmaxf(mx, a * 0.125f);
				}
				float den = 0.0f;
				float num[64];
				for (int d = 0; d < 64; d++) num[d] = 0.0f;
				for (int64_t u = cu[s]; u < cu[s + 1]; u++) {
					float a = 0.0f;
					for (int d = 0; d < 64; d++)
						a += fusecc_bf16_to_float(q[t][h][d]) * fusecc_bf16_to_float(k[u][h][d]);
					float p = expf(a * 0.125f - mx);
					den += p;
					for (int d = 0; d < 64; d++) num[d] += p * fusecc_bf16_to_float(v[u][h][d]);
				}
				for (int d = 0; d < 64; d++) o[t][h][d] = fusecc_float_to_bf16(num[d] / den);
			}
}
