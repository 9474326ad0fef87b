/* A CUDA programmer's C reference: flat pointers, offsets computed by hand
 * (b*H*N*D + h*N*D + i*D + d) in size_t, a causal mask as the loop bound. */
#include <math.h>
#include <stddef.h>

void attn_ref(int B, int H, int N, int D, float softmax_scale,
	      const _Float16 *Q, const _Float16 *K, const _Float16 *V, _Float16 *O)
{
#pragma fuse kernel(attn_ref) parallel(b, h, i)
	for (int b = 0; b < B; ++b)
		for (int h = 0; h < H; ++h)
			for (int i = 0; i < N; ++i) {
				const size_t qo = (size_t)b * H * N * D + (size_t)h * N * D + (size_t)i * D;
				const size_t ko = (size_t)b * H * N * D + (size_t)h * N * D;
				float row_max = -INFINITY;
				for (int j = 0; j <= i; ++j) {
					float x = 0.f;
					for (int d = 0; d < D; ++d)
						x += (float)Q[qo + d] * (float)K[ko + (size_t)j * D + d];
					x *= softmax_scale;
					if (x > row_max) row_max = x;
				}
				float row_sum = 0.f;
				for (int j = 0; j <= i; ++j) {
					float x = 0.f;
					for (int d = 0; d < D; ++d)
						x += (float)Q[qo + d] * (float)K[ko + (size_t)j * D + d];
					row_sum += expf(x * softmax_scale - row_max);
				}
				for (int d = 0; d < D; ++d) {
					float acc = 0.f;
					for (int j = 0; j <= i; ++j) {
						float x = 0.f;
						for (int e = 0; e < D; ++e)
							x += (float)Q[qo + e] * (float)K[ko + (size_t)j * D + e];
						acc += expf(x * softmax_scale - row_max) * (float)V[ko + (size_t)j * D + d];
					}
					O[qo + d] = (_Float16)(acc / row_sum);
				}
			}
}
