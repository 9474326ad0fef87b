/* A CPU inference engineer's GQA decode: each K/V row is loaded once and used by the G query heads of
 * its group, so the group loop sits inside the key loop, with per-head running max, sum and
 * accumulator arrays m[G], l[G], acc[G][D]. */
#include <math.h>
#include <stdint.h>

void gqa_decode_kouter(int B, int KVH, int G, int T, const int32_t kv_len[B], const _Float16 q[B][KVH * G][128],
		       const _Float16 k[B][KVH][T][128], const _Float16 v[B][KVH][T][128], _Float16 o[B][KVH * G][128])
{
#pragma fuse kernel(gqa_decode_kouter) parallel(b, kvh)
	for (int b = 0; b < B; b++)
		for (int kvh = 0; kvh < KVH; kvh++) {
			float m[G], l[G], acc[G][128];
			for (int g = 0; g < G; g++) {
				m[g] = -INFINITY;
				l[g] = 0.0f;
				for (int d = 0; d < 128; d++) acc[g][d] = 0.0f;
			}
			for (int t = 0; t < kv_len[b]; t++)
				for (int g = 0; g < G; g++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][kvh * G + g][d] * (float)k[b][kvh][t][d];
					s *= 0.08838834764831845f;
					const float mn = fmaxf(m[g], s), c = expf(m[g] - mn), p = expf(s - mn);
					l[g] = l[g] * c + p;
					for (int d = 0; d < 128; d++) acc[g][d] = acc[g][d] * c + p * (float)v[b][kvh][t][d];
					m[g] = mn;
				}
			for (int g = 0; g < G; g++)
				for (int d = 0; d < 128; d++) o[b][kvh * G + g][d] = (_Float16)(acc[g][d] / l[g]);
		}
}
