/* HPC style with unsigned counters everywhere and ALiBi written as slopes[h] * (float)(i - j) under the causal
 * bound j <= i: i - j never wraps there, as the loop bound shows. restrict pointers, 64u literals. */
#include <math.h>
void alibi_u(unsigned B, unsigned H, unsigned N, const float *restrict slopes, const float *restrict q, const float *restrict k, const float *restrict v, float *restrict o)
{
#pragma fuse kernel(alibi_u) parallel(b, h, i)
	for (unsigned b = 0; b < B; ++b)
		for (unsigned h = 0; h < H; ++h)
			for (unsigned i = 0; i < N; ++i) {
				float s[N];
				float m = -INFINITY;
				for (unsigned j = 0; j <= i; ++j) {
					float t = 0.f;
					for (unsigned d = 0; d < 64u; ++d) t += q[((b * H + h) * N + i) * 64u + d] * k[((b * H + h) * N + j) * 64u + d];
					s[j] = t * 0.125f - slopes[h] * (float)(i - j);
					m = fmaxf(m, s[j]);
				}
				float l = 0.f;
				for (unsigned j = 0; j <= i; ++j) { s[j] = expf(s[j] - m); l += s[j]; }
				for (unsigned d = 0; d < 64u; ++d) {
					float acc = 0.f;
					for (unsigned j = 0; j <= i; ++j) acc += s[j] * v[((b * H + h) * N + j) * 64u + d];
					o[((b * H + h) * N + i) * 64u + d] = acc / l;
				}
			}
}
