/* ggml-cpu ggml_compute_forward_flash_attn_ext_f16_one_chunk with V in f16: the output accumulates in f16
 * (VKQ16, ggml_vec_scale_f16 / ggml_vec_mad_f16 round every step), M and S in float, mask additive, scale. */
#include <math.h>
#define DV 128
void fa_ext_f16(int n_seqs, int n_head, int n_head_kv, int n_kv, float scale, const _Float16 q[n_seqs][n_head][DV],
		const _Float16 k[n_head_kv][n_kv][DV], const _Float16 v[n_head_kv][n_kv][DV], const _Float16 mask[n_seqs][n_kv],
		float dst[n_seqs][n_head][DV])
{
	const int rk2 = n_head / n_head_kv;
#pragma fuse kernel(fa_ext_f16) parallel(iq1, iq2) rolling(ic)
	for (int iq1 = 0; iq1 < n_seqs; iq1++)
		for (int iq2 = 0; iq2 < n_head; iq2++) {
			const int ik2 = iq2 / rk2;
			float S = 0.0f, M = -INFINITY;
			_Float16 VKQ16[DV];
			for (int d = 0; d < DV; d++) VKQ16[d] = (_Float16)0.0f;
			for (int ic = 0; ic < n_kv; ic++) {
				const float mv = (float)mask[iq1][ic];
				float s = 0.0f;
				for (int d = 0; d < DV; d++) s += (float)q[iq1][iq2][d] * (float)k[ik2][ic][d];
				s = s * scale + mv;
				const float Mold = M;
				float ms = 1.0f, vs = 1.0f;
				if (s > M) {
					M = s;
					ms = expf(Mold - M);
					for (int d = 0; d < DV; d++) VKQ16[d] = (_Float16)((float)VKQ16[d] * ms);
				} else {
					vs = expf(s - M);
				}
				for (int d = 0; d < DV; d++) VKQ16[d] = (_Float16)((float)VKQ16[d] + (float)v[ik2][ic][d] * vs);
				S = S * ms + vs;
			}
			const float S_inv = 1.0f / S;
			for (int d = 0; d < DV; d++) dst[iq1][iq2][d] = (float)VKQ16[d] * S_inv;
		}
}
