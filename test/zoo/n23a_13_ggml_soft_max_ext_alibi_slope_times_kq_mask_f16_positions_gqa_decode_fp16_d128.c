/* llama.cpp's non-flash path for ALiBi models: kq = mul_mat(k, q); soft_max_ext(kq, kq_mask,
 * kq_scale, max_bias) computes wp[i] = wp[i]*scale + slope*mp[i], where for ALiBi the f16
 * mask holds -|pos_q - pos_k| for visible keys and -INFINITY for hidden ones. Slope from
 * max_bias as in ggml (m0/m1, n_head_log2). GQA by h / (n_head / n_head_kv). ggml order
 * of loops: tokens (i) outer, heads inner. */
#include <math.h>
#include <stdint.h>

void ggml_alibi_attn(int n_tokens, int n_kv, int n_head, int n_head_kv, float kq_scale, float max_bias,
		     const _Float16 q[n_tokens][n_head][128], const _Float16 k[n_kv][n_head_kv][128],
		     const _Float16 v[n_kv][n_head_kv][128], const _Float16 kq_mask[n_tokens][n_kv],
		     _Float16 out[n_tokens][n_head][128])
{
	const uint32_t n_head_log2 = 1u << (uint32_t)floorf(log2f((float)n_head));
	const float m0 = powf(2.0f, -(max_bias) / n_head_log2);
	const float m1 = powf(2.0f, -(max_bias / 2.0f) / n_head_log2);
#pragma fuse kernel(ggml_alibi_attn) parallel(i, h)
	for (int i = 0; i < n_tokens; i++)
		for (int h = 0; h < n_head; h++) {
			const int hk = h / (n_head / n_head_kv);
			const float slope = (max_bias > 0.0f) ? (h < (int)n_head_log2 ? powf(m0, h + 1) : powf(m1, 2 * (h - (int)n_head_log2) + 1)) : 1.0f;
			float wp[n_kv];
			float max = -INFINITY;
			for (int j = 0; j < n_kv; j++) {
				float kq = 0.0f;
				for (int d = 0; d < 128; d++)
					kq += (float)k[j][hk][d] * (float)q[i][h][d];
				wp[j] = kq * kq_scale + slope * (float)kq_mask[i][j];
				max = fmaxf(max, wp[j]);
			}
			float sum = 0.0f;
			for (int j = 0; j < n_kv; j++) {
				float e = expf(wp[j] - max);
				sum += e;
				wp[j] = e;
			}
			sum = 1.0f / sum;
			for (int j = 0; j < n_kv; j++)
				wp[j] *= sum;
			for (int d = 0; d < 128; d++) {
				float kqv = 0.0f;
				for (int j = 0; j < n_kv; j++)
					kqv += (float)v[j][hk][d] * wp[j];
				out[i][h][d] = (_Float16)kqv;
			}
		}
}
