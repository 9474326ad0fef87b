/* P.V written for the two halves of the row in one loop: acc[d] and acc[d + 32] are reduced
 * by two statements. The repair is built from one statement's elements, so fusecc refuses
 * (it used to rescale only acc[d], leaving the second half unrepaired). A P.V unrolled by
 * hand (`d += 2`, acc[d] then acc[d + 1]) is rolled back into one loop and accepted. */
#include <math.h>

void attn(int N, const float q[N][64], const float k[N][64], const float v[N][64], float o[N][64])
{
#pragma fuse kernel(attn) parallel(i)
	for (int i = 0; i < N; i++) {
		float m = -INFINITY, l = 0.0f, acc[64];
		for (int d = 0; d < 64; d++)
			acc[d] = 0.0f;
		for (int j = 0; j < N; j++) {
			float s = 0.0f;
			for (int d = 0; d < 64; d++)
				s += q[i][d] * k[j][d];
			float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
			l = l * c + p;
			for (int d = 0; d < 32; d++) {
				acc[d] = acc[d] * c + p * v[j][d];
				acc[d + 32] = acc[d + 32] * c + p * v[j][d + 32];
			}
			m = mn;
		}
		for (int d = 0; d < 64; d++)
			o[i][d] = acc[d] / l;
	}
}
