/* A bidirectional encoder with `#pragma omp simd reduction(+:s)` on the dot, size_t loop counters and
 * offsets computed in size_t, softmax in base 2 with the scale folded into log2(e). enum { D = 64 }. */
#include <math.h>
#include <stddef.h>
#include "fusecc.h"
enum { D = 64 };
void enc_attn(size_t B, size_t H, size_t N, const fusecc_bf16 *q, const fusecc_bf16 *k, const fusecc_bf16 *v, fusecc_bf16 *o)
{
	const float c = 0.125f * 1.4426950408889634f;
#pragma fuse kernel(enc_attn) parallel(b, h, i)
	for (size_t b = 0; b < B; b++)
		for (size_t h = 0; h < H; h++)
			for (size_t i = 0; i < N; i++) {
				const size_t qo = ((b * H + h) * N + i) * D;
				float s2[N];
				float mx = -INFINITY;
				for (size_t j = 0; j < N; j++) {
					const size_t ko = ((b * H + h) * N + j) * D;
					float s = 0.0f;
#pragma omp simd reduction(+ : s)
					for (size_t d = 0; d < D; d++) s += fusecc_bf16_to_float(q[qo + d]) * fusecc_bf16_to_float(k[ko + d]);
					s2[j] = s * c;
					mx = fmaxf(mx, s2[j]);
				}
				float l = 0.0f;
				for (size_t j = 0; j < N; j++) { s2[j] = exp2f(s2[j] - mx); l += s2[j]; }
				for (size_t d = 0; d < D; d++) {
					float acc = 0.0f;
					for (size_t j = 0; j < N; j++) acc += s2[j] * fusecc_bf16_to_float(v[((b * H + h) * N + j) * D + d]);
					o[qo + d] = fusecc_float_to_bf16(acc / l);
				}
			}
}
