/* pf_two_values_zeroed_one_loop_fp16_rtD.c: causal attention with two value tensors
 * sharing one softmax (two value heads, attention plus a second projection's values).
 * Style: both accumulators declared in one declaration (float acc[D], acc2[D];) and
 * zeroed in ONE loop body ({ acc[d] = 0.0f; acc2[d] = 0.0f; }), the score recomputed in
 * the second pass, one P.V loop per value tensor, max with fmaxf; fp16, run-time D.
 * rolling(j). */
#include <math.h>

void two_v(int B, int H, int N, int D, float scale,
	   const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
	   const _Float16 v[B][H][N][D], const _Float16 v2[B][H][N][D],
	   _Float16 o[B][H][N][D], _Float16 o2[B][H][N][D])
{
#pragma fuse kernel(two_v) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					m = fmaxf(m, s * scale);
				}
				float l = 0.0f;
				float acc[D], acc2[D];
				for (int d = 0; d < D; d++) {
					acc[d] = 0.0f;
					acc2[d] = 0.0f;
				}
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					float p = expf(s * scale - m);
					l += p;
					for (int d = 0; d < D; d++)
						acc[d] += p * (float)v[b][h][j][d];
					for (int d = 0; d < D; d++)
						acc2[d] += p * (float)v2[b][h][j][d];
				}
				for (int d = 0; d < D; d++) {
					o[b][h][i][d] = (_Float16)(acc[d] / l);
					o2[b][h][i][d] = (_Float16)(acc2[d] / l);
				}
			}
}
