/* pf_ggml_noflash_vec_dot_double_helpers_fp16.c: llama.cpp's non-flash CPU path for one layer: KQ = K*Q, ggml_soft_max_ext(KQ, mask,
 * scale), KQV = V*softmax. Written with ggml-like helpers: ggml_vec_dot_f16 (double sum),
 * ggml_vec_max_f32, ggml_vec_soft_max_f32 returning the sum as ggml_float (double), and
 * ggml_vec_scale_f32. ne0/ne1 naming, typedef'd ggml_fp16_t and ggml_float; fp16 KV with
 * an fp16 KQ mask [n_kv] per query (-INF above the diagonal). */
#include <math.h>

typedef _Float16 ggml_fp16_t;
typedef double ggml_float;

#define GGML_FP16_TO_FP32(x) ((float)(x))
#define GGML_FP32_TO_FP16(x) ((ggml_fp16_t)(x))

static void ggml_vec_dot_f16(const int n, float *s, const ggml_fp16_t *x, const ggml_fp16_t *y)
{
	ggml_float sumf = 0.0;
	for (int i = 0; i < n; ++i)
		sumf += (ggml_float)(GGML_FP16_TO_FP32(x[i]) * GGML_FP16_TO_FP32(y[i]));
	*s = sumf;
}

static ggml_float ggml_vec_soft_max_f32(const int n, float *y, const float *x, float max)
{
	ggml_float sum = 0;
	for (int i = 0; i < n; ++i) {
		float val = expf(x[i] - max);
		sum += (ggml_float)val;
		y[i] = val;
	}
	return sum;
}

void llm_attn(int n_tokens, int n_kv, int n_head, float kq_scale,
	      const ggml_fp16_t q[n_head][n_tokens][128], const ggml_fp16_t k[n_head][n_kv][128],
	      const ggml_fp16_t v[n_head][n_kv][128], const ggml_fp16_t kq_mask[n_tokens][n_kv],
	      float kqv_out[n_tokens][n_head][128])
{
	const int ne00 = 128;
#pragma fuse kernel(llm_attn) parallel(h, i1) rolling(i0)
	for (int h = 0; h < n_head; h++)
		for (int i1 = 0; i1 < n_tokens; i1++) {
			float kq[n_kv];
			float wp[n_kv];
			for (int i0 = 0; i0 < n_kv; i0++) {
				ggml_vec_dot_f16(ne00, &kq[i0], k[h][i0], q[h][i1]);
				kq[i0] = kq[i0] * kq_scale + GGML_FP16_TO_FP32(kq_mask[i1][i0]);
			}
			float max = -INFINITY;
			for (int i0 = 0; i0 < n_kv; i0++)
				max = fmaxf(max, kq[i0]);
			ggml_float sum = ggml_vec_soft_max_f32(n_kv, wp, kq, max);
			sum = 1.0 / sum;
			for (int i0 = 0; i0 < n_kv; i0++)
				wp[i0] *= sum;
			for (int d = 0; d < ne00; d++) {
				float acc = 0.0f;
				for (int i0 = 0; i0 < n_kv; i0++)
					acc += wp[i0] * GGML_FP16_TO_FP32(v[h][i0][d]);
				kqv_out[i1][h][d] = acc;
			}
		}
}
