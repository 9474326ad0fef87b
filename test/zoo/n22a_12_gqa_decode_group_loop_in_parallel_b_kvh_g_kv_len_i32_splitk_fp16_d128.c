/* A decode kernel author's reference: query heads grouped under their KV head (q[b][kvh][g]),
 * the group loop named as parallel, per-sequence cache length, split-k over the keys. */
#include <math.h>
#include <stdint.h>

void gqa_decode(int B, int KVH, int G, int T, const _Float16 q[B][KVH][G][128], const _Float16 k[B][KVH][T][128],
		const _Float16 v[B][KVH][T][128], const int32_t kv_len[B], _Float16 o[B][KVH][G][128])
{
#pragma fuse kernel(gqa_decode) parallel(b, kvh, g) splitk(t)
	for (int b = 0; b < B; b++)
		for (int kvh = 0; kvh < KVH; kvh++)
			for (int g = 0; g < G; g++) {
				float m = -INFINITY, l = 0.0f, acc[128];
				for (int d = 0; d < 128; d++) acc[d] = 0.0f;
				for (int t = 0; t < kv_len[b]; t++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][kvh][g][d] * (float)k[b][kvh][t][d];
					s *= 0.08838834764831845f;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * (float)v[b][kvh][t][d];
					m = mn;
				}
				for (int d = 0; d < 128; d++) o[b][kvh][g][d] = (_Float16)(acc[d] / l);
			}
}
