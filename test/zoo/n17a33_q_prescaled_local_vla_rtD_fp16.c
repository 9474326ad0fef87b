/* q scaled once into a local copy qs[D] (run-time D) before the key loops, as ports of
 * `q = q * scale` do; noncausal, fp16. */
#include <math.h>

void attn_qscaled(int B, int H, int N, int D, const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		  const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(attn_qscaled) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float qs[D];
				for (int d = 0; d < D; d++) qs[d] = (float)q[b][h][i][d] * scale;
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++) s += qs[d] * (float)k[b][h][j][d];
					m = fmaxf(m, s);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++) s += qs[d] * (float)k[b][h][j][d];
					l += expf(s - m);
				}
				for (int d = 0; d < D; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) {
						float s = 0.0f;
						for (int e = 0; e < D; e++) s += qs[e] * (float)k[b][h][j][e];
						a += expf(s - m) * (float)v[b][h][j][d];
					}
					o[b][h][i][d] = (_Float16)(a / l);
				}
			}
}
