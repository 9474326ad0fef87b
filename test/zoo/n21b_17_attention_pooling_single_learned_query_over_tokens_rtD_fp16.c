/* Attention pooling with one learned query (CLIP/Perceiver-style pool, a decode in disguise):
 * s[t] = q . x[b][t] / sqrt(D), softmax over t, pooled[b][d] = sum_t p[t] x[b][t][d]; the
 * same tensor is key and value. */
#include <math.h>

void attn_pool(int B, int T, int D, const _Float16 q[D], const _Float16 x[B][T][D], float pooled[B][D])
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(attn_pool) parallel(b)
	for (int b = 0; b < B; b++) {
		float s[T];
		float m = -INFINITY;
		for (int t = 0; t < T; t++) {
			float acc = 0.0f;
			for (int d = 0; d < D; d++) acc += (float)q[d] * (float)x[b][t][d];
			s[t] = acc * scale;
			m = fmaxf(m, s[t]);
		}
		float l = 0.0f;
		for (int t = 0; t < T; t++) {
			s[t] = expf(s[t] - m);
			l += s[t];
		}
		for (int d = 0; d < D; d++) {
			float o = 0.0f;
			for (int t = 0; t < T; t++) o += s[t] * (float)x[b][t][d];
			pooled[b][d] = o / l;
		}
	}
}
