/* PROBE: the running max seeded with the first key's score (computed before the loop), the online
 * loop then starting at t = 1; the sum starts at exp(0) = 1 and the accumulator at v[0]. */
#include <math.h>

void decode_first_seed(int B, int H, int T, const float q[B][H][64], const float k[B][H][T][64], const float v[B][H][T][64],
		       float o[B][H][64])
{
#pragma fuse kernel(decode_first_seed) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = 0.0f;
			for (int d = 0; d < 64; d++) m += q[b][h][d] * k[b][h][0][d];
			m *= 0.125f;
			float l = 1.0f, acc[64];
			for (int d = 0; d < 64; d++) acc[d] = v[b][h][0][d];
			for (int t = 1; t < T; t++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += q[b][h][d] * k[b][h][t][d];
				s *= 0.125f;
				float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * v[b][h][t][d];
				m = mn;
			}
			for (int d = 0; d < 64; d++) o[b][h][d] = acc[d] / l;
		}
}
