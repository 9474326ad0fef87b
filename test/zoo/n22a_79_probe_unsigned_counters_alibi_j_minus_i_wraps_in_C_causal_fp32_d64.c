/* PROBE: an HPC port with unsigned loop counters and ALiBi written as slope * (float)(j - i): for
 * j < i the unsigned difference wraps to 2^32 - (i - j) in C (a bug of the input, but C's value);
 * does the fused code keep C's unsigned arithmetic? */
#include <math.h>

void alibi_unsigned(unsigned B, unsigned H, unsigned N, const float slopes[H], const float q[B][H][N][64],
		    const float k[B][H][N][64], const float v[B][H][N][64], float o[B][H][N][64])
{
#pragma fuse kernel(alibi_unsigned) parallel(b, h, i)
	for (unsigned b = 0; b < B; b++)
		for (unsigned h = 0; h < H; h++)
			for (unsigned i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (unsigned j = 0; j <= i; j++) {
					float s = 0.0f;
					for (unsigned d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					s = s * 0.125f + slopes[h] * (float)(j - i);
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (unsigned d = 0; d < 64; d++) acc[d] = acc[d] * c + p * v[b][h][j][d];
					m = mn;
				}
				for (unsigned d = 0; d < 64; d++) o[b][h][i][d] = acc[d] / l;
			}
}
