/* HPC style: restrict flat pointers, long indices, the query rows counted down
 * (i = N - 1 .. 0), an OpenMP pragma; head dim 64, causal bound j <= i. fp32. */
#include <math.h>

void attn_hpc(long B, long H, long N, const float *restrict q, const float *restrict k, const float *restrict v,
	      float *restrict o)
{
	const float scale = 0.125f;
#pragma fuse kernel(attn_hpc) parallel(b, h, i) rolling(j)
#pragma omp parallel for collapse(2)
	for (long b = 0; b < B; b++)
		for (long h = 0; h < H; h++)
			for (long i = N - 1; i >= 0; i--) {
				const float *qi = q + ((b * H + h) * N + i) * 64;
				const float *kb = k + (b * H + h) * N * 64;
				const float *vb = v + (b * H + h) * N * 64;
				float m = -INFINITY, l = 0.0f;
				for (long j = 0; j <= i; j++) {
					float s = 0.0f;
					for (long d = 0; d < 64; d++) s += qi[d] * kb[j * 64 + d];
					m = fmaxf(m, s * scale);
				}
				for (long j = 0; j <= i; j++) {
					float s = 0.0f;
					for (long d = 0; d < 64; d++) s += qi[d] * kb[j * 64 + d];
					l += expf(s * scale - m);
				}
				for (long d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (long j = 0; j <= i; j++) {
						float s = 0.0f;
						for (long e = 0; e < 64; e++) s += qi[e] * kb[j * 64 + e];
						acc += expf(s * scale - m) * vb[j * 64 + d];
					}
					o[((b * H + h) * N + i) * 64 + d] = acc / l;
				}
			}
}
