/* Probe: the output written over q in place (a memory-saving port), with the score recomputed
 * inside the d loop of P.V: after q[..][i][0] is overwritten, the scores for d >= 1 read the
 * new value. A fuser must follow C here (or refuse). Decode-like rows, D = 64, fp32. */
#include <math.h>

void attn_inplace_q(int B, int L, float q[B][64], const float k[B][L][64], const float v[B][L][64])
{
#pragma fuse kernel(attn_inplace_q) parallel(b) rolling(j)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY;
		for (int j = 0; j < L; j++) {
			float s = 0.0f;
			for (int d = 0; d < 64; d++) s += q[b][d] * k[b][j][d];
			m = fmaxf(m, s * 0.125f);
		}
		float l = 0.0f;
		for (int j = 0; j < L; j++) {
			float s = 0.0f;
			for (int d = 0; d < 64; d++) s += q[b][d] * k[b][j][d];
			l += expf(s * 0.125f - m);
		}
		for (int d = 0; d < 64; d++) {
			float a = 0.0f;
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int e = 0; e < 64; e++) s += q[b][e] * k[b][j][e];
				a += expf(s * 0.125f - m) * v[b][j][d];
			}
			q[b][d] = a / l;
		}
	}
}
