/* dc_t5_bias_rtD.c: T5 decoder self-attention for one new token: unscaled q.k plus the
 * relative position bias row for the last query position, bias[h][j].
 * Style: fp32, run-time `int D`, no scale, the score starts from the bias and the dot
 * is accumulated into it; no score buffer, recomputed in three passes; j-outer P.V into
 * acc[D]; max with fmaxf; normalised after. splitk(j). */
#include <math.h>

void t5_decode(int B, int H, int L, int D, const float bias[H][L],
	       const float q[B][H][D], const float k[B][H][L][D],
	       const float v[B][H][L][D], float o[B][H][D])
{
#pragma fuse kernel(t5_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY;
			for (int j = 0; j < L; j++) {
				float s = bias[h][j];
				for (int d = 0; d < D; d++)
					s += q[b][h][d] * k[b][h][j][d];
				m = fmaxf(m, s);
			}
			float l = 0.0f;
			for (int j = 0; j < L; j++) {
				float s = bias[h][j];
				for (int d = 0; d < D; d++)
					s += q[b][h][d] * k[b][h][j][d];
				l += expf(s - m);
			}
			float acc[D];
			for (int d = 0; d < D; d++)
				acc[d] = 0.0f;
			for (int j = 0; j < L; j++) {
				float s = bias[h][j];
				for (int d = 0; d < D; d++)
					s += q[b][h][d] * k[b][h][j][d];
				float p = expf(s - m);
				for (int d = 0; d < D; d++)
					acc[d] += p * v[b][h][j][d];
			}
			for (int d = 0; d < D; d++)
				o[b][h][d] = acc[d] / l;
		}
}
