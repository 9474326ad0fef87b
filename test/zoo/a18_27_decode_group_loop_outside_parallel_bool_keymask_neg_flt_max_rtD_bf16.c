/* Decode with GQA where the author keeps the group loop outside the parallel clause (parallel(b,
 * kvh) with the G query heads looped inside), a key-padding mask as a bool array, masked keys
 * filled with -FLT_MAX, run-time head dim, the scale from rsqrt written as 1/sqrtf. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include "fusecc.h"

void gqa_decode_keymask(int B, int KVH, int G, int L, int D, const bool key_valid[B][L], const fusecc_bf16 q[B][KVH][G][D],
			const fusecc_bf16 k[B][KVH][L][D], const fusecc_bf16 v[B][KVH][L][D], fusecc_bf16 o[B][KVH][G][D])
{
	const float inv_sqrt_d = 1.0f / sqrtf((float)D);
#pragma fuse kernel(gqa_decode_keymask) parallel(b, kvh) rolling(j)
	for (int b = 0; b < B; b++)
		for (int kvh = 0; kvh < KVH; kvh++)
			for (int g = 0; g < G; g++) {
				float mx = -FLT_MAX, l = 0.0f;
				float acc[D];
				for (int d = 0; d < D; d++) acc[d] = 0.0f;
				for (int j = 0; j < L; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++) s += fusecc_bf16_to_float(q[b][kvh][g][d]) * fusecc_bf16_to_float(k[b][kvh][j][d]);
					s = key_valid[b][j] ? s * inv_sqrt_d : -FLT_MAX;
					const float nm = fmaxf(mx, s);
					const float c = expf(mx - nm), p = expf(s - nm);
					l = l * c + p;
					for (int d = 0; d < D; d++) acc[d] = acc[d] * c + p * fusecc_bf16_to_float(v[b][kvh][j][d]);
					mx = nm;
				}
				for (int d = 0; d < D; d++) o[b][kvh][g][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
