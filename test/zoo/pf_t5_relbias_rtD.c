/* pf_t5_relbias_rtD.c: T5 encoder self-attention: unscaled q.k plus a learned relative
 * position bias per head, position_bias[h][i][j] (already bucketed by the caller).
 * Style: fp32, run-time `int D`, no scale at all (T5 folds it into the weights), the
 * score initialised from the bias and accumulated into (float s = bias; s += q*k),
 * stored in p[N], max in the score loop, exp stored back into p[j] in the sum loop,
 * d-outer P.V normalised after. rolling(j), no tile. */
#include <math.h>

void t5_attention(int B, int H, int N, int D, const float position_bias[H][N][N],
		  const float q[B][H][N][D], const float k[B][H][N][D],
		  const float v[B][H][N][D], float ctx[B][H][N][D])
{
#pragma fuse kernel(t5_attention) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float p[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = position_bias[h][i][j];
					for (int d = 0; d < D; d++)
						s += q[b][h][i][d] * k[b][h][j][d];
					p[j] = s;
					mx = fmaxf(mx, s);
				}
				float z = 0.0f;
				for (int j = 0; j < N; j++) {
					p[j] = expf(p[j] - mx);
					z += p[j];
				}
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += p[j] * v[b][h][j][d];
					ctx[b][h][i][d] = acc / z;
				}
			}
}
