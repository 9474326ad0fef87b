/* A kernel-library reference taking a run-time head dim and the tensors' strides as ints (as
 * FlashAttention's params struct does: q_batch_stride, q_head_stride, q_row_stride), so one
 * function serves BSHD and BHSD. Flat pointers. */
#include <math.h>

void strided_attn(int B, int H, int N, int D, int q_bs, int q_hs, int q_rs, int k_bs, int k_hs, int k_rs,
		  int o_bs, int o_hs, int o_rs, const _Float16 *q, const _Float16 *k, const _Float16 *v, _Float16 *o)
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(strided_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[256];
				for (int d = 0; d < D; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += (float)q[b * q_bs + h * q_hs + i * q_rs + d] * (float)k[b * k_bs + h * k_hs + j * k_rs + d];
					s *= scale;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < D; d++) acc[d] = acc[d] * c + p * (float)v[b * k_bs + h * k_hs + j * k_rs + d];
					m = mn;
				}
				for (int d = 0; d < D; d++) o[b * o_bs + h * o_hs + i * o_rs + d] = (_Float16)(acc[d] / l);
			}
}
