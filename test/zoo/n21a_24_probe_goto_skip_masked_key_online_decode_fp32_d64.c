/* Probe: a `goto next;` to skip a masked key instead of continue (old C style). */
#include <math.h>
#include <stdint.h>

void attn_goto(int B, int S, const uint8_t keep[B][S], const float q[B][64], const float k[B][S][64],
	       const float v[B][S][64], float o[B][64])
{
#pragma fuse kernel(attn_goto) parallel(b)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY, l = 0.0f, acc[64];
		for (int d = 0; d < 64; d++) acc[d] = 0.0f;
		for (int j = 0; j < S; j++) {
			if (!keep[b][j]) goto next;
			{
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += q[b][d] * k[b][j][d];
				s *= 0.125f;
				float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * v[b][j][d];
				m = mn;
			}
		next:;
		}
		for (int d = 0; d < 64; d++) o[b][d] = acc[d] / l;
	}
}
