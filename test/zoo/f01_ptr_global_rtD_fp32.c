/* Full (non-causal) attention over flat fp32 pointers q, k, v, o of [N][D], as ported from
 * .data_ptr(): head dim a run-time int, scores in a fixed local buffer s[4096], dot product
 * in a local named like the output accumulator (acc), d-outer P.V. No strategy clause. */
#include <math.h>
void attn(int N, int D, const float *q, const float *k, const float *v, float *o, float scale)
{
#pragma fuse kernel(attn) parallel(i)
	for (int i = 0; i < N; i++) {
		float s[4096];
		float m = -INFINITY;
		for (int j = 0; j < N; j++) {
			float acc = 0.0f;
			for (int d = 0; d < D; d++)
				acc += q[i * D + d] * k[j * D + d];
			s[j] = acc * scale;
			m = fmaxf(m, s[j]);
		}
		float l = 0.0f;
		for (int j = 0; j < N; j++) {
			s[j] = expf(s[j] - m);
			l += s[j];
		}
		for (int d = 0; d < D; d++) {
			float acc = 0.0f;
			for (int j = 0; j < N; j++)
				acc += s[j] * v[j * D + d];
			o[i * D + d] = acc / l;
		}
	}
}
