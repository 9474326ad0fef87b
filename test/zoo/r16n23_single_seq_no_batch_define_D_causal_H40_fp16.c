/* llama.cpp-minded single-sequence prefill: no batch dim (q[H][N][D]), #define D 128, causal written
 * as the key loop end j < i + 1, scale applied after the max pass (expf((s - m) * scale)). */
#include <math.h>
#define D 128

void attn_1seq(int H, int N, const _Float16 q[H][N][D], const _Float16 k[H][N][D], const _Float16 v[H][N][D],
	       _Float16 o[H][N][D])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(attn_1seq) parallel(h, i)
	for (int h = 0; h < H; h++)
		for (int i = 0; i < N; i++) {
			float m = -INFINITY;
			for (int j = 0; j < i + 1; j++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++) s += (float)q[h][i][d] * (float)k[h][j][d];
				m = fmaxf(m, s);
			}
			float l = 0.0f, acc[D];
			for (int d = 0; d < D; d++) acc[d] = 0.0f;
			for (int j = 0; j < i + 1; j++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++) s += (float)q[h][i][d] * (float)k[h][j][d];
				float p = expf((s - m) * scale);
				l += p;
				for (int d = 0; d < D; d++) acc[d] += p * (float)v[h][j][d];
			}
			for (int d = 0; d < D; d++) o[h][i][d] = (_Float16)(acc[d] / l);
		}
}
