/* llama.cpp-flavoured decode (no flash): int64_t sizes ne0 = head dim, n_kv keys, n_head heads,
 * flat fp16 cache [n_head_kv][n_kv][ne0], GQA by h / (n_head / n_head_kv), a ggml_vec_dot-like
 * helper, kq_scale passed in; fp32 output as ggml's dst. */
#include <math.h>
#include <stdint.h>

static void vec_dot_f16(int64_t n, float *s, const _Float16 *x, const _Float16 *y)
{
	float sumf = 0.0f;
	for (int64_t i = 0; i < n; i++) sumf += (float)x[i] * (float)y[i];
	*s = sumf;
}

void ggml_attn_ext(int64_t ne0, int64_t n_kv, int64_t n_head, int64_t n_head_kv, float kq_scale,
		   const _Float16 *q, const _Float16 *kc, const _Float16 *vc, float *dst)
{
#pragma fuse kernel(ggml_attn_ext) parallel(ih) splitk(ic)
	for (int64_t ih = 0; ih < n_head; ih++) {
		const int64_t ik = ih / (n_head / n_head_kv);
		float kq[n_kv];
		float max = -INFINITY;
		for (int64_t ic = 0; ic < n_kv; ic++) {
			float s;
			vec_dot_f16(ne0, &s, q + ih * ne0, kc + (ik * n_kv + ic) * ne0);
			kq[ic] = s * kq_scale;
			max = fmaxf(max, kq[ic]);
		}
		float sum = 0.0f;
		for (int64_t ic = 0; ic < n_kv; ic++) {
			kq[ic] = expf(kq[ic] - max);
			sum += kq[ic];
		}
		for (int64_t d = 0; d < ne0; d++) {
			float acc = 0.0f;
			for (int64_t ic = 0; ic < n_kv; ic++) acc += kq[ic] * (float)vc[(ik * n_kv + ic) * ne0 + d];
			dst[ih * ne0 + d] = acc / sum;
		}
	}
}
