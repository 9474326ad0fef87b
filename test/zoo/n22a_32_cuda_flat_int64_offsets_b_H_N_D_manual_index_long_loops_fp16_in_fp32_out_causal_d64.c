/* CUDA programmer's CPU check: flat pointers, int64_t offsets written out as b*H*N*D + h*N*D + i*D + d,
 * long loop indices, fp16 inputs and an fp32 output buffer (for comparison against the kernel). */
#include <math.h>
#include <stdint.h>

void attn_cpu_check(long B, long H, long N, const _Float16 *q, const _Float16 *k, const _Float16 *v, float *o)
{
	const long D = 64;
	const float scale = 0.125f;
#pragma fuse kernel(attn_cpu_check) parallel(b, h, i)
	for (long b = 0; b < B; b++)
		for (long h = 0; h < H; h++)
			for (long i = 0; i < N; i++) {
				const int64_t qrow = b * H * N * D + h * N * D + i * D;
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (long j = 0; j <= i; j++) {
					const int64_t krow = b * H * N * D + h * N * D + j * D;
					float s = 0.0f;
					for (long d = 0; d < D; d++) s += (float)q[qrow + d] * (float)k[krow + d];
					s *= scale;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (long d = 0; d < D; d++) acc[d] = acc[d] * c + p * (float)v[krow + d];
					m = mn;
				}
				for (long d = 0; d < D; d++) o[qrow + d] = acc[d] / l;
			}
}
