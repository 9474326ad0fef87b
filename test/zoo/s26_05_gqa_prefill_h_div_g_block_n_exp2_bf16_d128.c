/* GQA prefill ported from a Triton kernel that maps a query head to its KV head by
 * off_h // GROUP: K and V have HKV = H / G heads, read at h / G. BLOCK_N key blocks, exp2
 * online softmax, the last block's tail masked with -inf via a ternary. bf16 in and out (fusecc_bf16 from fusecc.h). */
#include <math.h>
#include "fusecc.h"
#define BLOCK_N 64
void gqa_fwd(int B, int H, int G, int N, float sm_scale, const fusecc_bf16 q[B][H][N][128], const fusecc_bf16 k[B][H / G][N][128],
	     const fusecc_bf16 v[B][H / G][N][128], fusecc_bf16 o[B][H][N][128])
{
	const float qk_scale = sm_scale * 1.44269504f;
#pragma fuse kernel(gqa_fwd) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int kvh = h / G;
				float m_i = -INFINITY, l_i = 1.0f, acc[128];
				for (int d = 0; d < 128; d++) acc[d] = 0.0f;
				for (int start_n = 0; start_n < N; start_n += BLOCK_N) {
					float qk[BLOCK_N], m_ij = m_i;
					for (int n = 0; n < BLOCK_N; n++) {
						float s = 0.0f;
						if (start_n + n < N)
							for (int d = 0; d < 128; d++) s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][kvh][start_n + n][d]);
						qk[n] = start_n + n < N ? s * qk_scale : -INFINITY;
						m_ij = fmaxf(m_ij, qk[n]);
					}
					float l_ij = 0.0f;
					for (int n = 0; n < BLOCK_N; n++) { qk[n] = exp2f(qk[n] - m_ij); l_ij += qk[n]; }
					const float alpha = exp2f(m_i - m_ij);
					l_i = l_i * alpha + l_ij;
					for (int d = 0; d < 128; d++) {
						acc[d] *= alpha;
						for (int n = 0; n < BLOCK_N; n++)
							if (start_n + n < N) acc[d] += qk[n] * fusecc_bf16_to_float(v[b][kvh][start_n + n][d]);
					}
					m_i = m_ij;
				}
				for (int d = 0; d < 128; d++) o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l_i);
			}
}
