/* A quantised classifier head's output: int8 logits with a per-row scale (dequantise on the fly),
 * log-softmax into float logprobs. Embedded engineer's C. */
#include <math.h>
#include <stdint.h>

void q8_log_softmax(int N, int C, const int8_t q[N][C], const float scale[N], float logp[N][C])
{
#pragma fuse kernel(q8_log_softmax) parallel(n)
	for (int n = 0; n < N; n++) {
		const float s = scale[n];
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			m = fmaxf(m, s * (float)q[n][c]);
		float z = 0.0f;
		for (int c = 0; c < C; c++)
			z += expf(s * (float)q[n][c] - m);
		const float lz = m + logf(z);
		for (int c = 0; c < C; c++)
			logp[n][c] = s * (float)q[n][c] - lz;
	}
}
