/* A CUDA programmer's host reference for a strided kernel: flat pointers, element strides passed
 * as parameters the way the kernel gets them from tensor.stride(), long sizes, size_t offsets. */
#include <math.h>
#include <stddef.h>
#include "fusecc.h"

void attn_ref(long B, long H, long N, long D, long q_stride_b, long q_stride_h, long q_stride_n,
	      const fusecc_bf16 *q, const fusecc_bf16 *k, const fusecc_bf16 *v, fusecc_bf16 *o, float softmax_scale)
{
#pragma fuse kernel(attn_ref) parallel(b, h, i)
	for (long b = 0; b < B; b++)
		for (long h = 0; h < H; h++)
			for (long i = 0; i < N; i++) {
				const size_t qo = (size_t)b * q_stride_b + (size_t)h * q_stride_h + (size_t)i * q_stride_n;
				float m = -INFINITY, l = 0.0f;
				float acc[D];
				for (long d = 0; d < D; d++) acc[d] = 0.0f;
				for (long j = 0; j < N; j++) {
					const size_t ko = (size_t)b * q_stride_b + (size_t)h * q_stride_h + (size_t)j * q_stride_n;
					float s = 0.0f;
					for (long d = 0; d < D; d++)
						s += fusecc_bf16_to_float(q[qo + d]) * fusecc_bf16_to_float(k[ko + d]);
					s *= softmax_scale;
					float mn = fmaxf(m, s);
					float a = expf(m - mn), p = expf(s - mn);
					l = l * a + p;
					for (long d = 0; d < D; d++) acc[d] = acc[d] * a + p * fusecc_bf16_to_float(v[ko + d]);
					m = mn;
				}
				for (long d = 0; d < D; d++) o[qo + d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
