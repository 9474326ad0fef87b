/* GQA decode with the group loop named in parallel(b, kvh, g): numpy-minded helpers dot()
 * and a materialised score row, softmax by hand, P.V with a helper-free loop. bf16. */
#include <math.h>
#include "fusecc.h"

static float dot64(const fusecc_bf16 *a, const fusecc_bf16 *b)
{
	float s = 0.0f;
	for (int d = 0; d < 64; d++) s += fusecc_bf16_to_float(a[d]) * fusecc_bf16_to_float(b[d]);
	return s;
}

void gqa_decode(int B, int KVH, int G, int L, const fusecc_bf16 q[B][KVH][G][64], const fusecc_bf16 k[B][KVH][L][64],
		const fusecc_bf16 v[B][KVH][L][64], const int seqlen[B], fusecc_bf16 o[B][KVH][G][64])
{
#pragma fuse kernel(gqa_decode) parallel(b, kvh, g)
	for (int b = 0; b < B; b++)
		for (int kvh = 0; kvh < KVH; kvh++)
			for (int g = 0; g < G; g++) {
				float sc[L];
				float mx = -INFINITY;
				for (int t = 0; t < seqlen[b]; t++) {
					sc[t] = dot64(q[b][kvh][g], k[b][kvh][t]) * 0.125f;
					mx = fmaxf(mx, sc[t]);
				}
				float den = 0.0f;
				for (int t = 0; t < seqlen[b]; t++) {
					sc[t] = expf(sc[t] - mx);
					den += sc[t];
				}
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int t = 0; t < seqlen[b]; t++) a += sc[t] * fusecc_bf16_to_float(v[b][kvh][t][d]);
					o[b][kvh][g][d] = fusecc_float_to_bf16(a / den);
				}
			}
}
