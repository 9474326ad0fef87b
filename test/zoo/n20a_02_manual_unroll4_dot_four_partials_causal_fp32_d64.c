/* Someone who learned to help the compiler: the q.k dot unrolled by four into s0..s3 partials,
 * combined (s0 + s1) + (s2 + s3); causal by loop bound; exp() from math.h on floats (double). */
#include <math.h>
void attn_unroll(int B, int H, int N, const float *q, const float *k, const float *v, float *o)
{
	const float sm = 0.125f;
#pragma fuse kernel(attn_unroll) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const float *qi = q + ((b * H + h) * N + i) * 64;
				float sc[N];
				float mx = -1e30f;
				for (int j = 0; j <= i; j++) {
					const float *kj = k + ((b * H + h) * N + j) * 64;
					float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
					for (int d = 0; d < 64; d += 4) {
						s0 += qi[d] * kj[d];
						s1 += qi[d + 1] * kj[d + 1];
						s2 += qi[d + 2] * kj[d + 2];
						s3 += qi[d + 3] * kj[d + 3];
					}
					sc[j] = ((s0 + s1) + (s2 + s3)) * sm;
					if (sc[j] > mx) mx = sc[j];
				}
				float sum = 0;
				for (int j = 0; j <= i; j++) { sc[j] = exp(sc[j] - mx); sum += sc[j]; }
				float *oi = o + ((b * H + h) * N + i) * 64;
				for (int d = 0; d < 64; d++) {
					float a = 0;
					for (int j = 0; j <= i; j++) a += sc[j] * v[((b * H + h) * N + j) * 64 + d];
					oi[d] = a / sum;
				}
			}
}
