/* llama.cpp-ish decode: one query token per (seq, head), KV heads shared by n_gqa query heads,
 * scale folded with log2(e) and exp2f, kv length per sequence (int32). */
#include <math.h>
#include <stdint.h>

#define HD 128

void ggml_decode(int n_seq, int n_head, int n_head_kv, int n_ctx, float kq_scale,
		 const _Float16 q[n_seq][n_head][HD],
		 const _Float16 kc[n_seq][n_head_kv][n_ctx][HD],
		 const _Float16 vc[n_seq][n_head_kv][n_ctx][HD],
		 const int32_t n_kv[n_seq], float dst[n_seq][n_head][HD])
{
	const int n_gqa = n_head / n_head_kv;
	const float sl2 = kq_scale * 1.44269504f;
#pragma fuse kernel(ggml_decode) parallel(s, h) splitk(t)
	for (int s = 0; s < n_seq; s++)
		for (int h = 0; h < n_head; h++) {
			const int hk = h / n_gqa;
			float M = -INFINITY;
			for (int t = 0; t < n_kv[s]; t++) {
				float kq = 0.0f;
				for (int d = 0; d < HD; d++)
					kq += (float)q[s][h][d] * (float)kc[s][hk][t][d];
				M = fmaxf(M, kq * sl2);
			}
			float S = 0.0f;
			float V[HD];
			for (int d = 0; d < HD; d++) V[d] = 0.0f;
			for (int t = 0; t < n_kv[s]; t++) {
				float kq = 0.0f;
				for (int d = 0; d < HD; d++)
					kq += (float)q[s][h][d] * (float)kc[s][hk][t][d];
				const float p = exp2f(kq * sl2 - M);
				S += p;
				for (int d = 0; d < HD; d++)
					V[d] += p * (float)vc[s][hk][t][d];
			}
			for (int d = 0; d < HD; d++)
				dst[s][h][d] = V[d] / S;
		}
}
