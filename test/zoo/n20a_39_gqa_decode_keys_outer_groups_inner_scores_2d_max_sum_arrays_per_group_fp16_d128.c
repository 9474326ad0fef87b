/* A CPU decode that loads each K row once for the whole query group: keys outer, the G heads of the
 * group inner, scores into sc[G][L]; then per-group max / sum arrays m[G], l[G] and the P.V with the
 * group inner again (llama.cpp's CPU GQA trick). parallel(b, kvh) only. */
#include <math.h>
void gqa_keys_outer(int B, int KVH, int G, int L, const _Float16 q[B][KVH][G][128], const _Float16 k[B][KVH][L][128],
		    const _Float16 v[B][KVH][L][128], const int kv_len[B], _Float16 o[B][KVH][G][128])
{
#pragma fuse kernel(gqa_keys_outer) parallel(b, kvh)
	for (int b = 0; b < B; b++)
		for (int kvh = 0; kvh < KVH; kvh++) {
			float sc[G][L];
			float m[G], l[G];
			for (int g = 0; g < G; g++) { m[g] = -INFINITY; l[g] = 0.0f; }
			for (int j = 0; j < kv_len[b]; j++)
				for (int g = 0; g < G; g++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][kvh][g][d] * (float)k[b][kvh][j][d];
					sc[g][j] = s * 0.08838834764831845f;
					m[g] = fmaxf(m[g], sc[g][j]);
				}
			for (int j = 0; j < kv_len[b]; j++)
				for (int g = 0; g < G; g++) { sc[g][j] = expf(sc[g][j] - m[g]); l[g] += sc[g][j]; }
			for (int g = 0; g < G; g++)
				for (int d = 0; d < 128; d++) {
					float acc = 0.0f;
					for (int j = 0; j < kv_len[b]; j++) acc += sc[g][j] * (float)v[b][kvh][j][d];
					o[b][kvh][g][d] = (_Float16)(acc / l[g]);
				}
		}
}
