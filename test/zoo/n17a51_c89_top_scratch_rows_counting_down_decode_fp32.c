/* C89 decode over a batch with everything declared at the top (scratch att[MAXL] included)
 * and the batch loop counting down, as an old numerical library writes it. fp32, D = 64. */
#include <math.h>
#define MAXL 4096

void decode_c89_down(int B, int L, const float q[B][64], const float k[B][L][64], const float v[B][L][64], float o[B][64])
{
	int b, j, d;
	float att[MAXL];
	float mx, sum, s, a;
#pragma fuse kernel(decode_c89_down) parallel(b) rolling(j)
	for (b = B - 1; b >= 0; b--) {
		mx = -INFINITY;
		for (j = 0; j < L; j++) {
			s = 0.0f;
			for (d = 0; d < 64; d++) s += q[b][d] * k[b][j][d];
			att[j] = s * 0.125f;
			if (att[j] > mx) mx = att[j];
		}
		sum = 0.0f;
		for (j = 0; j < L; j++) {
			att[j] = expf(att[j] - mx);
			sum += att[j];
		}
		for (d = 0; d < 64; d++) {
			a = 0.0f;
			for (j = 0; j < L; j++) a += att[j] * v[b][j][d];
			o[b][d] = a / sum;
		}
	}
}
