/* Probe: a key loop stepping by 2 (every other key, a strided "dilated" attention). */
#include <math.h>

void dilated(int B, int L, const float q[B][64], const float k[B][L][64], float lse[B])
{
#pragma fuse kernel(dilated) parallel(b) rolling(j)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY;
		for (int j = 0; j < L; j += 2) {
			float s = 0.0f;
			for (int d = 0; d < 64; d++) s += q[b][d] * k[b][j][d];
			m = fmaxf(m, s);
		}
		float l = 0.0f;
		for (int j = 0; j < L; j += 2) {
			float s = 0.0f;
			for (int d = 0; d < 64; d++) s += q[b][d] * k[b][j][d];
			l += expf(s - m);
		}
		lse[b] = m + logf(l);
	}
}
