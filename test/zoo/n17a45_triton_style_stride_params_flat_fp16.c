/* A Triton/CUDA programmer's reference taking the tensors' strides as arguments (as
 * q.stride(0), q.stride(1), q.stride(2) are passed to kernels): q[b*sqb + h*sqh + i*sqm + d]. */
#include <math.h>
#include <stdint.h>

void attn_strided(int B, int H, int N, int64_t sqb, int64_t sqh, int64_t sqm, const _Float16 *q, const _Float16 *k,
		  const _Float16 *v, _Float16 *o)
{
	const float scale = 0.125f;
#pragma fuse kernel(attn_strided) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b * sqb + h * sqh + i * sqm + d] * (float)k[b * sqb + h * sqh + j * sqm + d];
					m = fmaxf(m, s * scale);
				}
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b * sqb + h * sqh + i * sqm + d] * (float)k[b * sqb + h * sqh + j * sqm + d];
					float p = expf(s * scale - m);
					l += p;
					for (int d = 0; d < 64; d++) acc[d] += p * (float)v[b * sqb + h * sqh + j * sqm + d];
				}
				for (int d = 0; d < 64; d++) o[b * sqb + h * sqh + i * sqm + d] = (_Float16)(acc[d] / l);
			}
}
