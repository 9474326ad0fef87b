/* z03_sizes_size_t_int64_fp32.c: attention written with the integer types a C code base
 * gives sizes: int64_t batch and head counts (PyTorch's sizes), size_t lengths, unsigned
 * head dim, size_t and long iterators, and row offsets through (size_t) casts.
 * Style: fp32, flat pointers q + ((size_t)(b * H + h) * N + i) * D, scores in s[N],
 * exp stored back, normalised in P.V. rolling(j). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

void attn_sizes(int64_t B, int64_t H, size_t N, unsigned D, float scale,
                const float *q, const float *k, const float *v, float *o)
{
#pragma fuse kernel(attn_sizes) parallel(b, h, i) rolling(j)
	for (int64_t b = 0; b < B; b++)
		for (long h = 0; h < H; h++)
			for (size_t i = 0; i < N; i++) {
				const float *qi = q + ((size_t)(b * H + h) * N + i) * D;
				float s[N];
				float m = -INFINITY;
				for (size_t j = 0; j < N; j++) {
					const float *kj = k + ((size_t)(b * H + h) * N + j) * D;
					float x = 0.0f;
					for (unsigned d = 0; d < D; d++)
						x += qi[d] * kj[d];
					s[j] = x * scale;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (size_t j = 0; j < N; j++) {
					s[j] = expf(s[j] - m);
					l += s[j];
				}
				for (unsigned d = 0; d < D; d++) {
					float acc = 0.0f;
					for (size_t j = 0; j < N; j++)
						acc += s[j] * v[((size_t)(b * H + h) * N + j) * D + d];
					o[((size_t)(b * H + h) * N + i) * D + d] = acc / l;
				}
			}
}
