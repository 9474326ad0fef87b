/* An HPC programmer's two-pass attention: the q.k dot through fmaf (s = fmaf(q, k, s)), the softmax in its
 * own loops, then the P.V with keys OUTER and d inner into a local acc[64] (axpy of each V row), normalised
 * at the store. Causal by bound. */
#include <math.h>
#include <stddef.h>
void fma_attn(int B, int H, int N, const float *restrict q, const float *restrict k, const float *restrict v, float *restrict o)
{
#pragma fuse kernel(fma_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const float *qi = q + ((size_t)(b * H + h) * N + i) * 64;
				float p[N];
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					const float *kj = k + ((size_t)(b * H + h) * N + j) * 64;
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s = fmaf(qi[d], kj[d], s);
					p[j] = s * 0.125f;
					m = fmaxf(m, p[j]);
				}
				float l = 0.0f;
				for (int j = 0; j <= i; j++) { p[j] = expf(p[j] - m); l += p[j]; }
				float acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					const float *vj = v + ((size_t)(b * H + h) * N + j) * 64;
					for (int d = 0; d < 64; d++) acc[d] += p[j] * vj[d];
				}
				float *oi = o + ((size_t)(b * H + h) * N + i) * 64;
				for (int d = 0; d < 64; d++) oi[d] = acc[d] / l;
			}
}
