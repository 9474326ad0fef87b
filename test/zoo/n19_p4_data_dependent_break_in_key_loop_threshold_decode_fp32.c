/* PROBE: early exit out of the key loop on a data condition (stop at the first score below a threshold),
 * a break whose condition is not monotone in the iterator. Should be refused. */
#include <math.h>
void decode_break(int B, int L, float thr, const float q[B][64], const float k[B][L][64], const float v[B][L][64], float o[B][64])
{
#pragma fuse kernel(decode_break) parallel(b)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY, l = 0.0f, acc[64];
		for (int d = 0; d < 64; d++) acc[d] = 0.0f;
		for (int j = 0; j < L; j++) {
			float s = 0.0f;
			for (int d = 0; d < 64; d++) s += q[b][d] * k[b][j][d];
			if (s < thr) break;
			const float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
			l = l * c + p;
			for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * v[b][j][d];
			m = mn;
		}
		for (int d = 0; d < 64; d++) o[b][d] = l > 0.0f ? acc[d] / l : 0.0f;
	}
}
