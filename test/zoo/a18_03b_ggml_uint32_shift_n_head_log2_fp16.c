/* ggml-style CPU reference of flash_attn_ext for one new token: int64 ne-sizes, element offsets
 * computed by hand, ALiBi slope from max_bias (m0/m1 powers), optional logit softcap, the value row
 * accumulated with VKQ and S running sums (online, as ggml_compute_forward_flash_attn_ext_f16_one_chunk). */
#include <math.h>
#include <stdint.h>

void fa_ext_decode(int64_t n_batch, int64_t n_head, int64_t n_head_kv, int64_t n_kv, int64_t DK,
		   const _Float16 *q, const _Float16 *k, const _Float16 *v, float *dst,
		   float scale, float max_bias, float logit_softcap)
{
	const uint32_t n_head_log2 = 1u << (uint32_t)floorf(log2f((float)n_head));
	const float m0 = powf(2.0f, -(max_bias) / n_head_log2);
	const float m1 = powf(2.0f, -(max_bias / 2.0f) / n_head_log2);
	const int64_t rk2 = n_head / n_head_kv;
#pragma fuse kernel(fa_ext_decode) parallel(ib, ih) rolling(ic)
	for (int64_t ib = 0; ib < n_batch; ib++)
		for (int64_t ih = 0; ih < n_head; ih++) {
			const int64_t ik2 = ih / rk2;
			const float slope = (max_bias > 0.0f) ? (ih < n_head_log2 ? powf(m0, ih + 1) : powf(m1, 2 * (ih - n_head_log2) + 1)) : 1.0f;
			float S = 0.0f, M = -INFINITY;
			float VKQ32[DK];
			for (int64_t d = 0; d < DK; d++) VKQ32[d] = 0.0f;
			const _Float16 *pq = q + (ib * n_head + ih) * DK;
			for (int64_t ic = 0; ic < n_kv; ic++) {
				const _Float16 *pk = k + ((ib * n_head_kv + ik2) * n_kv + ic) * DK;
				float s = 0.0f;
				for (int64_t d = 0; d < DK; d++) s += (float)pq[d] * (float)pk[d];
				s = s * scale;
				if (logit_softcap != 0.0f) s = logit_softcap * tanhf(s / logit_softcap);
				s += slope * (float)(ic - n_kv + 1);
				const float Mold = M;
				float ms = 1.0f, vs = 1.0f;
				if (s > M) { M = s; ms = expf(Mold - M); for (int64_t d = 0; d < DK; d++) VKQ32[d] *= ms; }
				else { vs = expf(s - M); }
				const _Float16 *pv = v + ((ib * n_head_kv + ik2) * n_kv + ic) * DK;
				for (int64_t d = 0; d < DK; d++) VKQ32[d] += vs * (float)pv[d];
				S = S * ms + vs;
			}
			const float S_inv = S == 0.0f ? 0.0f : 1.0f / S;
			for (int64_t d = 0; d < DK; d++) dst[(ib * n_head + ih) * DK + d] = VKQ32[d] * S_inv;
		}
}
