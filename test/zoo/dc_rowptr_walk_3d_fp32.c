/* Decode scores with a pointer walked a row at a time over a 3-D cache (`const float *kp
 * = &k[h][0][0]; ... kp += D;` after each key), then the max and the softmax's sum,
 * as a C programmer used to flat buffers writes it over [H][L][D] arrays; fp32, D = 64. */
#include <math.h>

#define D 64

void row_walk_lse(int H, int L, const float q[H][D], const float k[H][L][D], float lse[H])
{
#pragma fuse kernel(row_walk_lse) parallel(h) splitk(t: 8)
	for (int h = 0; h < H; h++) {
		const float *kp = &k[h][0][0];
		float m = -INFINITY;
		float s[L];
		for (int t = 0; t < L; t++) {
			float dot = 0.0f;
			for (int d = 0; d < D; d++)
				dot += q[h][d] * kp[d];
			s[t] = dot * 0.125f;
			m = fmaxf(m, s[t]);
			kp += D;
		}
		float z = 0.0f;
		for (int t = 0; t < L; t++)
			z += expf(s[t] - m);
		lse[h] = m + logf(z);
	}
}
