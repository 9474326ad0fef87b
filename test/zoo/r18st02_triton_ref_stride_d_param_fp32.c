/* A Triton reference that also passes the last stride (stride_qk, which is 1 for a
 * contiguous tensor but is not known to be). fp32, D = 64, no mask. */
#include <math.h>

void attn_ref(const float *q, const float *k, const float *v, float *o,
	      long sq_b, long sq_h, long sq_m, long sq_k,
	      long sk_b, long sk_h, long sk_n, long sk_k,
	      long so_b, long so_h, long so_m, long so_k,
	      int B, int H, int M, int N, float scale)
{
#pragma fuse kernel(attn_ref) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < M; i++) {
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += q[b * sq_b + h * sq_h + i * sq_m + d * sq_k] * k[b * sk_b + h * sk_h + j * sk_n + d * sk_k];
					mx = fmaxf(mx, s * scale);
				}
				float den = 0.0f;
				float out[64] = {0};
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += q[b * sq_b + h * sq_h + i * sq_m + d * sq_k] * k[b * sk_b + h * sk_h + j * sk_n + d * sk_k];
					float p = expf(s * scale - mx);
					den += p;
					for (int d = 0; d < 64; d++)
						out[d] += p * v[b * sk_b + h * sk_h + j * sk_n + d * sk_k];
				}
				for (int d = 0; d < 64; d++)
					o[b * so_b + h * so_h + i * so_m + d * so_k] = out[d] / den;
			}
}
