/* A CUDA programmer's CPU reference: flat pointers, size_t offsets b*H*N*D + h*N*D + i*D + d,
 * #define D 128, causal as the bound j < i + 1, exp2f with log2(e) folded into the scale. */
#include <math.h>
#include <stddef.h>
#include "fusecc.h"
#define D 128

void attn_ref(int B, int H, int N, const fusecc_bf16 *Q, const fusecc_bf16 *K, const fusecc_bf16 *V, fusecc_bf16 *O)
{
	const float scale_log2 = 1.4426950408889634f / sqrtf((float)D);
#pragma fuse kernel(attn_ref) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const size_t qo = (size_t)b * H * N * D + (size_t)h * N * D + (size_t)i * D;
				const size_t kvo = (size_t)b * H * N * D + (size_t)h * N * D;
				float m = -INFINITY;
				for (int j = 0; j < i + 1; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += fusecc_bf16_to_float(Q[qo + d]) * fusecc_bf16_to_float(K[kvo + (size_t)j * D + d]);
					m = fmaxf(m, s * scale_log2);
				}
				float l = 0.0f;
				for (int j = 0; j < i + 1; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += fusecc_bf16_to_float(Q[qo + d]) * fusecc_bf16_to_float(K[kvo + (size_t)j * D + d]);
					l += exp2f(s * scale_log2 - m);
				}
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < i + 1; j++) {
						float s = 0.0f;
						for (int e = 0; e < D; e++)
							s += fusecc_bf16_to_float(Q[qo + e]) * fusecc_bf16_to_float(K[kvo + (size_t)j * D + e]);
						acc += exp2f(s * scale_log2 - m) * fusecc_bf16_to_float(V[kvo + (size_t)j * D + d]);
					}
					O[qo + d] = fusecc_float_to_bf16(acc / l);
				}
			}
}
