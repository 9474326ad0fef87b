/* GQA decode where the accumulators of a KV head's G query heads are one 2-D local acc[4][64] declared
 * per (b, kvh), the group loop (G = 4, Llama-3-8B's ratio) outside the key loop, m and l scalars. */
#include <math.h>
#include <stdint.h>

void gqa_decode_acc2d(int B, int KVH, int T, const int32_t lens[B], const _Float16 q[B][KVH * 4][64],
		      const _Float16 k[B][KVH][T][64], const _Float16 v[B][KVH][T][64], _Float16 o[B][KVH * 4][64])
{
#pragma fuse kernel(gqa_decode_acc2d) parallel(b, kvh)
	for (int b = 0; b < B; b++)
		for (int kvh = 0; kvh < KVH; kvh++) {
			float acc[4][64];
			for (int g = 0; g < 4; g++) {
				for (int d = 0; d < 64; d++) acc[g][d] = 0.0f;
				float m = -INFINITY, l = 0.0f;
				for (int t = 0; t < lens[b]; t++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][kvh * 4 + g][d] * (float)k[b][kvh][t][d];
					s *= 0.125f;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++) acc[g][d] = acc[g][d] * c + p * (float)v[b][kvh][t][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++) o[b][kvh * 4 + g][d] = (_Float16)(acc[g][d] / l);
			}
		}
}
