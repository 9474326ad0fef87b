/* Probe: the row is filled with -1e4, then the causal part ADDS the dot product to what is
 * there (so visible scores carry the -1e4 offset too, which the softmax cancels). The
 * overwrite reads the fill: the two loops must not be merged as a mask. fp32, d = 32. */
#include <math.h>

void fill_add_attn(int N, const float q[N][32], const float k[N][32], const float v[N][32], float o[N][32])
{
#pragma fuse kernel(fill_add_attn) parallel(i)
	for (int i = 0; i < N; i++) {
		float s[N];
		for (int j = 0; j < N; j++)
			s[j] = -1e4f;
		for (int j = 0; j <= i; j++) {
			float dot = 0.0f;
			for (int d = 0; d < 32; d++)
				dot += q[i][d] * k[j][d];
			s[j] += dot;
		}
		float m = -INFINITY;
		for (int j = 0; j < N; j++)
			m = fmaxf(m, s[j]);
		float l = 0.0f;
		for (int j = 0; j < N; j++)
			l += expf(s[j] - m);
		for (int d = 0; d < 32; d++) {
			float a = 0.0f;
			for (int j = 0; j < N; j++)
				a += expf(s[j] - m) * v[j][d];
			o[i][d] = a / l;
		}
	}
}
