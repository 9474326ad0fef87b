/* FlashAttention-3's FP8 forward (flash_attn_func with fp8 q/k/v and q_descale, k_descale,
 * v_descale per (batch, kv head)), written as the test's reference: dequantise, scaled
 * causal attention in fp32, bf16 output. */
#include <math.h>
#include "fusecc.h"

void fa3_fp8_ref(int B, int H, int N, float softmax_scale, const fusecc_fp8e4m3 q[B][H][N][128],
		 const fusecc_fp8e4m3 k[B][H][N][128], const fusecc_fp8e4m3 v[B][H][N][128], const float q_descale[B][H],
		 const float k_descale[B][H], const float v_descale[B][H], fusecc_bf16 o[B][H][N][128])
{
#pragma fuse kernel(fa3_fp8_ref) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const float qk_descale = q_descale[b][h] * k_descale[b][h] * softmax_scale;
				float m = -INFINITY, l = 0.0f, acc[128] = {0};
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += fusecc_fp8e4m3_to_float(q[b][h][i][d]) * fusecc_fp8e4m3_to_float(k[b][h][j][d]);
					s *= qk_descale;
					float mn = fmaxf(m, s);
					float c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++)
						acc[d] = acc[d] * c + p * fusecc_fp8e4m3_to_float(v[b][h][j][d]);
					m = mn;
				}
				for (int d = 0; d < 128; d++)
					o[b][h][i][d] = fusecc_float_to_bf16(acc[d] * v_descale[b][h] / l);
			}
}
