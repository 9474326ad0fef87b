/* GQA prefill with the query heads grouped under their KV head in the layout, q [B][KVH][G][N][D], and
 * the group loop among the parallel loops, parallel(b, kvh, g, i); causal. */
#include <math.h>

void gqa_prefill_grp(int B, int KVH, int G, int N, const _Float16 q[B][KVH][G][N][128], const _Float16 k[B][KVH][N][128],
		     const _Float16 v[B][KVH][N][128], _Float16 o[B][KVH][G][N][128])
{
#pragma fuse kernel(gqa_prefill_grp) parallel(b, kvh, g, i)
	for (int b = 0; b < B; b++)
		for (int kvh = 0; kvh < KVH; kvh++)
			for (int g = 0; g < G; g++)
				for (int i = 0; i < N; i++) {
					float m = -INFINITY, l = 0.0f, acc[128] = {0};
					for (int j = 0; j <= i; j++) {
						float s = 0.0f;
						for (int d = 0; d < 128; d++) s += (float)q[b][kvh][g][i][d] * (float)k[b][kvh][j][d];
						s *= 0.08838834764831845f;
						float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
						l = l * c + p;
						for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * (float)v[b][kvh][j][d];
						m = mn;
					}
					for (int d = 0; d < 128; d++) o[b][kvh][g][i][d] = (_Float16)(acc[d] / l);
				}
}
