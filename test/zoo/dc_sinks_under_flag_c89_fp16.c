/* gpt-oss decode in C89 style with its optional sinks: the seeds set under a flag
 * (`m = -INFINITY; l = 0.0f; if (use_sinks) { m = sink[h]; l = 1.0f; }`), split-k; fp16, D = 64. */
#include <math.h>
#define D 64
void sk(int H, int L, int use_sinks, float scale, const _Float16 q[H][D], const _Float16 k[H][L][D], const _Float16 v[H][L][D], const float sink[H], _Float16 o[H][D])
{
	int h, t, d;
	float m, l, x, mn, a, p;
	float acc[D];
#pragma fuse kernel(sk) parallel(h) splitk(t: 8)
	for (h = 0; h < H; h++) {
		for (d = 0; d < D; d++)
			acc[d] = 0.0f;
		m = -INFINITY;
		l = 0.0f;
		if (use_sinks) {
			m = sink[h];
			l = 1.0f;
		}
		for (t = 0; t < L; t++) {
			x = 0.0f;
			for (d = 0; d < D; d++)
				x += (float)q[h][d] * (float)k[h][t][d];
			x *= scale;
			mn = fmaxf(m, x);
			a = expf(m - mn);
			p = expf(x - mn);
			l = l * a + p;
			for (d = 0; d < D; d++)
				acc[d] = acc[d] * a + p * (float)v[h][t][d];
			m = mn;
		}
		for (d = 0; d < D; d++)
			o[h][d] = (_Float16)(acc[d] / l);
	}
}
