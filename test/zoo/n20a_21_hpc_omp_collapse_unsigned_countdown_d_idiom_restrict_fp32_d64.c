/* HPC style: restrict pointers, an OpenMP collapse(3) above the region pragma, unsigned counters, the
 * d loops written as the `for (unsigned d = D; d-- > 0;)` count-down idiom, keys counting up. */
#include <math.h>
void attn_omp(unsigned B, unsigned H, unsigned N, const float *restrict Q, const float *restrict K, const float *restrict V,
	      float *restrict O)
{
	const float scale = 0.125f;
#pragma fuse kernel(attn_omp) parallel(b, h, i)
#pragma omp parallel for collapse(3)
	for (unsigned b = 0; b < B; ++b)
		for (unsigned h = 0; h < H; ++h)
			for (unsigned i = 0; i < N; ++i) {
				const float *restrict q = Q + ((b * H + h) * N + i) * 64u;
				float m = -INFINITY;
				for (unsigned j = 0; j < N; ++j) {
					float s = 0.f;
					for (unsigned d = 64; d-- > 0;) s += q[d] * K[((b * H + h) * N + j) * 64u + d];
					m = fmaxf(m, s * scale);
				}
				float l = 0.f;
				float acc[64];
				for (unsigned d = 64; d-- > 0;) acc[d] = 0.f;
				for (unsigned j = 0; j < N; ++j) {
					float s = 0.f;
					for (unsigned d = 64; d-- > 0;) s += q[d] * K[((b * H + h) * N + j) * 64u + d];
					const float p = expf(s * scale - m);
					l += p;
					for (unsigned d = 64; d-- > 0;) acc[d] += p * V[((b * H + h) * N + j) * 64u + d];
				}
				for (unsigned d = 64; d-- > 0;) O[((b * H + h) * N + i) * 64u + d] = acc[d] / l;
			}
}
