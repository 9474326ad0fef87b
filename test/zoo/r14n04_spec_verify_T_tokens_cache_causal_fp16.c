/* Speculative decoding verification: T draft tokens per sequence attend to the cache of
 * length ctx[b] plus the draft tokens up to themselves (all in one cache, appended). */
#include <math.h>
void spec_verify(int B, int H, int T, int L, const int ctx[B], const _Float16 q[B][H][T][128],
		 const _Float16 k[B][H][L][128], const _Float16 v[B][H][L][128], _Float16 o[B][H][T][128],
		 float scale)
{
#pragma fuse kernel(spec_verify) parallel(b, h, t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int t = 0; t < T; t++) {
				const int n = ctx[b] + t + 1;
				float m = -INFINITY;
				for (int j = 0; j < n; j++) {
					float s = 0;
					for (int d = 0; d < 128; d++) s += (float)q[b][h][t][d] * (float)k[b][h][j][d];
					m = fmaxf(m, s * scale);
				}
				float l = 0, acc[128];
				for (int d = 0; d < 128; d++) acc[d] = 0;
				for (int j = 0; j < n; j++) {
					float s = 0;
					for (int d = 0; d < 128; d++) s += (float)q[b][h][t][d] * (float)k[b][h][j][d];
					float p = expf(s * scale - m);
					l += p;
					for (int d = 0; d < 128; d++) acc[d] += p * (float)v[b][h][j][d];
				}
				for (int d = 0; d < 128; d++) o[b][h][t][d] = (_Float16)(acc[d] / l);
			}
}
