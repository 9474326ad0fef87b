/* pf_window_ternary_end_fp16.c: local (bidirectional) attention, Longformer-like, over
 * keys [0, min(N, i + W + 1)) (a look-ahead window of W keys).
 * Style: the end clamped with a shifted ternary in an int local, `int hi = i + W < N ? i +
 * W + 1 : N;`, run-time D, fp16, scores recomputed in each of the three passes, P
 * normalised before P.V (expf(..) / z). rolling(j). */
#include <math.h>

void local_attn(int B, int H, int N, int D, int W, float scale,
		const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(local_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				int hi = i + W < N ? i + W + 1 : N;
				float m = -INFINITY;
				for (int j = 0; j < hi; j++) {
					float x = 0.0f;
					for (int d = 0; d < D; d++)
						x += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					m = fmaxf(m, x * scale);
				}
				float z = 0.0f;
				for (int j = 0; j < hi; j++) {
					float x = 0.0f;
					for (int d = 0; d < D; d++)
						x += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					z += expf(x * scale - m);
				}
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < hi; j++) {
					float x = 0.0f;
					for (int d = 0; d < D; d++)
						x += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					float p = expf(x * scale - m) / z;
					for (int d = 0; d < D; d++)
						acc[d] += p * (float)v[b][h][j][d];
				}
				for (int d = 0; d < D; d++)
					o[b][h][i][d] = (_Float16)acc[d];
			}
}
