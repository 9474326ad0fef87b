/* llama.cpp's CPU path for a micro-batch: a KQ mask tensor [n_tokens][n_kv] of 0 / -INFINITY
 * built by the caller (causal plus sequence separation), added after scaling; heads outer,
 * tokens inner, K/V views [n_head_kv][n_kv][64], GQA by h / (n_head / n_head_kv). */
#include <math.h>

void llm_attn_ubatch(int n_head, int n_head_kv, int n_tokens, int n_kv, const float kq_mask[n_tokens][n_kv],
		     const _Float16 Q[n_head][n_tokens][64], const _Float16 K[n_head_kv][n_kv][64],
		     const _Float16 V[n_head_kv][n_kv][64], float out[n_tokens][n_head][64], float kq_scale)
{
#pragma fuse kernel(llm_attn_ubatch) parallel(h, t)
	for (int h = 0; h < n_head; h++)
		for (int t = 0; t < n_tokens; t++) {
			const int hk = h / (n_head / n_head_kv);
			float kq[n_kv];
			float max = -INFINITY;
			for (int c = 0; c < n_kv; c++) {
				float sum = 0.0f;
				for (int d = 0; d < 64; d++) sum += (float)Q[h][t][d] * (float)K[hk][c][d];
				kq[c] = sum * kq_scale + kq_mask[t][c];
				max = kq[c] > max ? kq[c] : max;
			}
			float sum = 0.0f;
			for (int c = 0; c < n_kv; c++) {
				const float val = kq[c] == -INFINITY ? 0.0f : expf(kq[c] - max);
				sum += val;
				kq[c] = val;
			}
			sum = 1.0f / sum;
			for (int c = 0; c < n_kv; c++) kq[c] *= sum;
			for (int d = 0; d < 64; d++) {
				float r = 0.0f;
				for (int c = 0; c < n_kv; c++) r += kq[c] * (float)V[hk][c][d];
				out[t][h][d] = r;
			}
		}
}
