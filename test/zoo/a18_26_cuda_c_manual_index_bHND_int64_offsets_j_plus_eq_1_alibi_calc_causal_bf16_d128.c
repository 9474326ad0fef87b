/* A CUDA programmer's C reference: flat pointers, the index math written out in full
 * (b*H*N*D + h*N*D + i*D + d) in int64_t, `j += 1` steps, ALiBi slopes computed per head as
 * 2^(-8(h+1)/H) with exp2f, causal, normalised by multiplying with inv_l. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"
#define D 128

void alibi_causal_ref(int B, int H, int N, const fusecc_bf16 *q, const fusecc_bf16 *k, const fusecc_bf16 *v, fusecc_bf16 *o)
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(alibi_causal_ref) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b += 1)
		for (int h = 0; h < H; h += 1)
			for (int i = 0; i < N; i += 1) {
				const float slope = exp2f(-8.0f * (float)(h + 1) / (float)H);
				float m = -INFINITY, l = 0.0f, acc[D];
				for (int d = 0; d < D; d += 1) acc[d] = 0.0f;
				for (int j = 0; j <= i; j += 1) {
					float s = 0.0f;
					for (int d = 0; d < D; d += 1)
						s += fusecc_bf16_to_float(q[(int64_t)b * H * N * D + (int64_t)h * N * D + (int64_t)i * D + d]) *
						     fusecc_bf16_to_float(k[(int64_t)b * H * N * D + (int64_t)h * N * D + (int64_t)j * D + d]);
					s = s * scale + slope * (float)(j - i);
					const float mn = fmaxf(m, s);
					const float r = expf(m - mn);
					const float p = expf(s - mn);
					l = l * r + p;
					for (int d = 0; d < D; d += 1)
						acc[d] = acc[d] * r + p * fusecc_bf16_to_float(v[(int64_t)b * H * N * D + (int64_t)h * N * D + (int64_t)j * D + d]);
					m = mn;
				}
				const float inv_l = 1.0f / l;
				for (int d = 0; d < D; d += 1)
					o[(int64_t)b * H * N * D + (int64_t)h * N * D + (int64_t)i * D + d] = fusecc_float_to_bf16(acc[d] * inv_l);
			}
}
