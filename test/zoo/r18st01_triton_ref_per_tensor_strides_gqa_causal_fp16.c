/* A Triton kernel's CPU reference, written next to the kernel by its author: every tensor
 * passed with its own strides (q.stride(0..2)), heads grouped (GQA, h / (H / HKV)), causal,
 * D = 128 fixed, the scale computed before the loops. */
#include <math.h>
#include <stdint.h>

#define HEAD_DIM 128

void attn_fwd_ref(const _Float16 *Q, const _Float16 *K, const _Float16 *V, _Float16 *Out,
		  int64_t stride_qz, int64_t stride_qh, int64_t stride_qm,
		  int64_t stride_kz, int64_t stride_kh, int64_t stride_kn,
		  int64_t stride_vz, int64_t stride_vh, int64_t stride_vn,
		  int64_t stride_oz, int64_t stride_oh, int64_t stride_om,
		  int Z, int H, int HKV, int N_CTX, float sm_scale)
{
	const float qk_scale = sm_scale * 1.44269504f;
	const int group = H / HKV;
#pragma fuse kernel(attn_fwd_ref) parallel(z, h, m)
	for (int z = 0; z < Z; z++)
		for (int h = 0; h < H; h++)
			for (int m = 0; m < N_CTX; m++) {
				const int kvh = h / group;
				float m_i = -INFINITY, l_i = 0.0f;
				float acc[HEAD_DIM];
				for (int d = 0; d < HEAD_DIM; d++)
					acc[d] = 0.0f;
				for (int n = 0; n <= m; n++) {
					float qk = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++)
						qk += (float)Q[z * stride_qz + h * stride_qh + m * stride_qm + d] *
						      (float)K[z * stride_kz + kvh * stride_kh + n * stride_kn + d];
					m_i = fmaxf(m_i, qk * qk_scale);
				}
				for (int n = 0; n <= m; n++) {
					float qk = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++)
						qk += (float)Q[z * stride_qz + h * stride_qh + m * stride_qm + d] *
						      (float)K[z * stride_kz + kvh * stride_kh + n * stride_kn + d];
					float p = exp2f(qk * qk_scale - m_i);
					l_i += p;
					for (int d = 0; d < HEAD_DIM; d++)
						acc[d] += p * (float)V[z * stride_vz + kvh * stride_vh + n * stride_vn + d];
				}
				for (int d = 0; d < HEAD_DIM; d++)
					Out[z * stride_oz + h * stride_oh + m * stride_om + d] = (_Float16)(acc[d] / l_i);
			}
}
