/* Gemma-3 attention as a C port writes it: QK-norm with Gemma's RMSNorm (x * rsqrt(mean(x^2) + eps)
 * * (1 + w), the weights stored zero-centred), GQA by h / G, head_dim 256, query_pre_attn_scalar 256
 * (scale 1/16), causal, bf16. The query's factor once per row, each key's inside the key loop. */
#include <math.h>
#include "fusecc.h"

void gemma3_attn(int B, int H, int G, int N, const fusecc_bf16 q[B][H][N][256], const fusecc_bf16 k[B][H / G][N][256],
		 const fusecc_bf16 v[B][H / G][N][256], const float q_norm_w[256], const float k_norm_w[256],
		 fusecc_bf16 o[B][H][N][256])
{
#pragma fuse kernel(gemma3_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float sq = 0.0f;
				for (int d = 0; d < 256; d++)
					sq += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(q[b][h][i][d]);
				const float rq = 1.0f / sqrtf(sq / 256.0f + 1e-6f);
				float m = -INFINITY, l = 0.0f, acc[256];
				for (int d = 0; d < 256; d++)
					acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float sk = 0.0f;
					for (int d = 0; d < 256; d++)
						sk += fusecc_bf16_to_float(k[b][h / G][j][d]) * fusecc_bf16_to_float(k[b][h / G][j][d]);
					const float rk = 1.0f / sqrtf(sk / 256.0f + 1e-6f);
					float s = 0.0f;
					for (int d = 0; d < 256; d++)
						s += (fusecc_bf16_to_float(q[b][h][i][d]) * rq * (1.0f + q_norm_w[d])) *
						     (fusecc_bf16_to_float(k[b][h / G][j][d]) * rk * (1.0f + k_norm_w[d]));
					s *= 0.0625f;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 256; d++)
						acc[d] = acc[d] * c + p * fusecc_bf16_to_float(v[b][h / G][j][d]);
					m = mn;
				}
				for (int d = 0; d < 256; d++)
					o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
