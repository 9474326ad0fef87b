/* FlashAttention's interface ported to C: one Flash_fwd_params-like struct passed by
 * pointer to const holds the tensors (q, k, v, o as pointer fields), their strides in
 * elements (row, head, batch), the sizes and the softmax scale, as flash_api.cpp fills
 * Flash_fwd_params before it calls run_mha_fwd; the kernel reads everything through
 * params->. D = 64. */
#include <math.h>
#include <stdint.h>

typedef struct {
	const _Float16 *q;
	const _Float16 *k;
	const _Float16 *v;
	_Float16 *o;
	int64_t q_batch_stride, k_batch_stride, v_batch_stride, o_batch_stride;
	int64_t q_head_stride, k_head_stride, v_head_stride, o_head_stride;
	int64_t q_row_stride, k_row_stride, v_row_stride, o_row_stride;
	int b, h, seqlen_q, seqlen_k;
	float scale_softmax;
	void *softmax_lse_ptr; /* kept in the struct, not read here */
} Flash_fwd_params;

void flash_fwd(const Flash_fwd_params *params)
{
#pragma fuse kernel(flash_fwd) parallel(bi, hi, i)
	for (int bi = 0; bi < params->b; bi++)
		for (int hi = 0; hi < params->h; hi++)
			for (int i = 0; i < params->seqlen_q; i++) {
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int j = 0; j < params->seqlen_k; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)params->q[bi * params->q_batch_stride + hi * params->q_head_stride + i * params->q_row_stride + d] *
						     (float)params->k[bi * params->k_batch_stride + hi * params->k_head_stride + j * params->k_row_stride + d];
					s *= params->scale_softmax;
					const float mn = fmaxf(m, s), c = expf(m - mn), e = expf(s - mn);
					l = l * c + e;
					for (int d = 0; d < 64; d++)
						acc[d] = acc[d] * c + e * (float)params->v[bi * params->v_batch_stride + hi * params->v_head_stride + j * params->v_row_stride + d];
					m = mn;
				}
				for (int d = 0; d < 64; d++)
					params->o[bi * params->o_batch_stride + hi * params->o_head_stride + i * params->o_row_stride + d] = (_Float16)(acc[d] / l);
			}
}
