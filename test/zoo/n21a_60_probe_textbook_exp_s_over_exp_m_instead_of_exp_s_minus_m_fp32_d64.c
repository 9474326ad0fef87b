/* Probe: a textbook port that writes the shifted exponential as expf(s) / expf(m) (same maths,
 * different overflow: expf(s) is inf above 88, and inf / inf = NaN). With range=8 scores stay
 * small; with large scores the C computes NaN, which the fused code must too. */
#include <math.h>

void attn_expdiv(int B, int H, int S, const float q[B][H][64], const float k[B][H][S][64],
		 const float v[B][H][S][64], float o[B][H][64])
{
#pragma fuse kernel(attn_expdiv) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float sc[S], m = -INFINITY;
			for (int j = 0; j < S; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += q[b][h][d] * k[b][h][j][d];
				sc[j] = s * 0.125f;
				m = fmaxf(m, sc[j]);
			}
			float l = 0.0f;
			for (int j = 0; j < S; j++) l += expf(sc[j]) / expf(m);
			for (int d = 0; d < 64; d++) {
				float acc = 0.0f;
				for (int j = 0; j < S; j++) acc += expf(sc[j]) / expf(m) * v[b][h][j][d];
				o[b][h][d] = acc / l;
			}
		}
}
