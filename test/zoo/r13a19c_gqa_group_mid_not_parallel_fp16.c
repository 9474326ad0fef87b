/* GQA with the group loop inside the row body (not in parallel): for each KV head and query
 * position, loop over the G query heads sharing it. */
#include <math.h>

void gqa_mid_group(int B, int KVH, int G, int N, const _Float16 q[B][KVH * G][N][64],
		     const _Float16 k[B][KVH][N][64], const _Float16 v[B][KVH][N][64],
		     _Float16 o[B][KVH * G][N][64])
{
#pragma fuse kernel(gqa_mid_group) parallel(b, kh, i)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < KVH; kh++)
			for (int g = 0; g < G; g++)
				for (int i = 0; i < N; i++) {
					const int h = kh * G + g;
					float m = -INFINITY;
					for (int j = 0; j <= i; j++) {
						float t = 0.0f;
						for (int d = 0; d < 64; d++) t += (float)q[b][h][i][d] * (float)k[b][kh][j][d];
						m = fmaxf(m, t * 0.125f);
					}
					float l = 0.0f, acc[64];
					for (int d = 0; d < 64; d++) acc[d] = 0.0f;
					for (int j = 0; j <= i; j++) {
						float t = 0.0f;
						for (int d = 0; d < 64; d++) t += (float)q[b][h][i][d] * (float)k[b][kh][j][d];
						float p = expf(t * 0.125f - m);
						l += p;
						for (int d = 0; d < 64; d++) acc[d] += p * (float)v[b][kh][j][d];
					}
					for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
				}
}
