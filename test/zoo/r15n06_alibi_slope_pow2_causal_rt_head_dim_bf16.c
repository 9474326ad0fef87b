/* BLOOM/MPT ALiBi prefill: slope per head computed from powf(2, -8 (h+1) / H) in the head loop,
 * bias = slope * (j - i), causal by loop bound, run-time head_dim, bf16. */
#include <math.h>
#include "fusecc.h"

void alibi_prefill(int B, int H, int N, int head_dim, const fusecc_bf16 q[B][H][N][head_dim],
		   const fusecc_bf16 k[B][H][N][head_dim], const fusecc_bf16 v[B][H][N][head_dim],
		   fusecc_bf16 o[B][H][N][head_dim])
{
	const float inv_sqrt_d = 1.0f / sqrtf((float)head_dim);
#pragma fuse kernel(alibi_prefill) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const float slope = powf(2.0f, -8.0f * (float)(h + 1) / (float)H);
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f;
				float acc[head_dim];
				for (int d = 0; d < head_dim; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < head_dim; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					s = s * inv_sqrt_d + slope * (float)(j - i);
					float m_new = fmaxf(m, s);
					float corr = expf(m - m_new);
					float p = expf(s - m_new);
					l = l * corr + p;
					for (int d = 0; d < head_dim; d++)
						acc[d] = acc[d] * corr + p * fusecc_bf16_to_float(v[b][h][j][d]);
					m = m_new;
				}
				for (int d = 0; d < head_dim; d++) o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
		}
}
