/* naive_flat_ws_scores_probs_out_fp32.c: a CPU reference as a CUDA-extension author
 * writes it next to the kernel, with the scores and the probabilities kept in
 * workspaces the caller passes (both returned for debugging): S = Q K^T * scale, then a
 * row softmax from S into P whose loops are named r and c, then O = P V, each its own
 * nest. Style: fp32, flat pointers with per-(b, h) base pointers, ++i, int64 offsets,
 * head dim 64 as a literal, parallel(bh), no strategy clause. */
#include <math.h>

void attn_ws(int BH, int N, const float *q, const float *k, const float *v, float *S, float *P, float *o)
{
#pragma fuse kernel(attn_ws) parallel(bh)
	for (int bh = 0; bh < BH; bh++) {
		const float *Q = q + (long)bh * N * 64;
		const float *K = k + (long)bh * N * 64;
		const float *V = v + (long)bh * N * 64;
		float *Sb = S + (long)bh * N * N;
		float *Pb = P + (long)bh * N * N;
		for (int i = 0; i < N; ++i)
			for (int j = 0; j < N; ++j) {
				float s = 0;
				for (int d = 0; d < 64; ++d)
					s += Q[i * 64 + d] * K[j * 64 + d];
				Sb[i * N + j] = s * 0.125f;
			}
		for (int r = 0; r < N; ++r) {
			float mx = -INFINITY;
			for (int c = 0; c < N; ++c)
				mx = fmaxf(mx, Sb[r * N + c]);
			float l = 0;
			for (int c = 0; c < N; ++c)
				l += expf(Sb[r * N + c] - mx);
			for (int c = 0; c < N; ++c)
				Pb[r * N + c] = expf(Sb[r * N + c] - mx) / l;
		}
		for (int i = 0; i < N; ++i)
			for (int d = 0; d < 64; ++d) {
				float acc = 0;
				for (int j = 0; j < N; ++j)
					acc += Pb[i * N + j] * V[j * 64 + d];
				o[((long)bh * N + i) * 64 + d] = acc;
			}
	}
}
