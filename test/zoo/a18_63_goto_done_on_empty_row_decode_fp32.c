/* Message check: a decode that jumps past the row with goto when the sequence is empty. */
#include <math.h>

void dec_goto(int B, int L, const int len[B], const float q[B][64], const float k[B][L][64], const float v[B][L][64], float o[B][64])
{
#pragma fuse kernel(dec_goto) parallel(b)
	for (int b = 0; b < B; b++) {
		if (len[b] == 0) goto next;
		float m = -INFINITY, l = 0.0f, acc[64] = {0};
		for (int j = 0; j < len[b]; j++) {
			float s = 0.0f;
			for (int d = 0; d < 64; d++) s += q[b][d] * k[b][j][d];
			const float mn = fmaxf(m, s), c = expf(m - mn), e = expf(s - mn);
			l = l * c + e;
			for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + e * v[b][j][d];
			m = mn;
		}
		for (int d = 0; d < 64; d++) o[b][d] = acc[d] / l;
	next:;
	}
}
