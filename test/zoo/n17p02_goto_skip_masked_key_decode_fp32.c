/* Probe: goto to skip a masked key (old C style) in a decode. */
#include <math.h>

void decode_goto(int B, int L, const int keep[B][L], const float q[B][64], const float k[B][L][64], const float v[B][L][64],
		 float o[B][64])
{
#pragma fuse kernel(decode_goto) parallel(b) rolling(j)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY, l = 0.0f, acc[64] = {0};
		for (int j = 0; j < L; j++) {
			if (!keep[b][j]) goto next;
			float s = 0.0f;
			for (int d = 0; d < 64; d++) s += q[b][d] * k[b][j][d];
			m = fmaxf(m, s);
		next:;
		}
		for (int j = 0; j < L; j++) {
			float s = 0.0f;
			for (int d = 0; d < 64; d++) s += q[b][d] * k[b][j][d];
			float p = keep[b][j] ? expf(s - m) : 0.0f;
			l += p;
			for (int d = 0; d < 64; d++) acc[d] += p * v[b][j][d];
		}
		for (int d = 0; d < 64; d++) o[b][d] = acc[d] / l;
	}
}
