/* GQA prefill with the query heads of a KV head as a loop of their own, named in the parallel
 * clause before the rows: parallel(b, kh, g, i); q laid out [B][KH][G][N][D]. */
#include <math.h>

void gqa_grouped_prefill(int B, int KH, int G, int N, const _Float16 q[B][KH][G][N][64],
			 const _Float16 k[B][KH][N][64], const _Float16 v[B][KH][N][64], _Float16 o[B][KH][G][N][64])
{
#pragma fuse kernel(gqa_grouped_prefill) parallel(b, kh, g, i)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < KH; kh++)
			for (int g = 0; g < G; g++)
				for (int i = 0; i < N; i++) {
					float s[N];
					float m = -INFINITY;
					for (int j = 0; j < N; j++) {
						float x = 0;
						for (int d = 0; d < 64; d++) x += (float)q[b][kh][g][i][d] * (float)k[b][kh][j][d];
						s[j] = x * 0.125f;
						m = fmaxf(m, s[j]);
					}
					float l = 0;
					for (int j = 0; j < N; j++) l += expf(s[j] - m);
					for (int d = 0; d < 64; d++) {
						float a = 0;
						for (int j = 0; j < N; j++) a += expf(s[j] - m) * (float)v[b][kh][j][d];
						o[b][kh][g][i][d] = (_Float16)(a / l);
					}
				}
}
