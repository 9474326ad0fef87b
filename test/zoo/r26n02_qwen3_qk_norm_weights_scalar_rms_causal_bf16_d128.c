/* Qwen3 attention (q_norm / k_norm: RMSNorm over each head's 128 dims with learned weights, before
 * RoPE is left to the caller) as a C port keeps it next to the scores: the query's 1/rms once per row,
 * each key's inside the key loop, both weights applied in the dot. bf16 storage (the checkpoint's),
 * fp32 math, causal, eps 1e-6, scale 1/sqrt(128). */
#include <math.h>
#include "fusecc.h"

void qwen3_attn(int B, int H, int N, const fusecc_bf16 q[B][H][N][128], const fusecc_bf16 k[B][H][N][128],
		const fusecc_bf16 v[B][H][N][128], const fusecc_bf16 q_norm_w[128], const fusecc_bf16 k_norm_w[128],
		fusecc_bf16 o[B][H][N][128])
{
#pragma fuse kernel(qwen3_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float var_q = 0.0f;
				for (int d = 0; d < 128; d++) {
					float x = fusecc_bf16_to_float(q[b][h][i][d]);
					var_q += x * x;
				}
				float inv_q = 1.0f / sqrtf(var_q / 128.0f + 1e-6f);
				float m = -INFINITY, l = 0.0f, acc[128];
				for (int d = 0; d < 128; d++)
					acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float var_k = 0.0f;
					for (int d = 0; d < 128; d++) {
						float x = fusecc_bf16_to_float(k[b][h][j][d]);
						var_k += x * x;
					}
					float inv_k = 1.0f / sqrtf(var_k / 128.0f + 1e-6f);
					float s = 0.0f;
					for (int d = 0; d < 128; d++) {
						float qn = fusecc_bf16_to_float(q[b][h][i][d]) * inv_q * fusecc_bf16_to_float(q_norm_w[d]);
						float kn = fusecc_bf16_to_float(k[b][h][j][d]) * inv_k * fusecc_bf16_to_float(k_norm_w[d]);
						s += qn * kn;
					}
					s *= 0.08838834764831845f;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++)
						acc[d] = acc[d] * c + p * fusecc_bf16_to_float(v[b][h][j][d]);
					m = mn;
				}
				for (int d = 0; d < 128; d++)
					o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
