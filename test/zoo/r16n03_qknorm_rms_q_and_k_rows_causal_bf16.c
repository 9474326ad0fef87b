/* QK-norm (OLMo-2 / Qwen3 style) written into the attention loop: RMSNorm of the q row and of each
 * k row (weights qw, kw over D=128) before the dot; causal, bf16 storage, fp32 math. */
#include <math.h>
#include "fusecc.h"

void qknorm_attn(int B, int H, int N, const fusecc_bf16 q[B][H][N][128], const fusecc_bf16 k[B][H][N][128],
		 const fusecc_bf16 v[B][H][N][128], const float qw[128], const float kw[128], fusecc_bf16 o[B][H][N][128])
{
	const float eps = 1e-6f, scale = 0.08838834764831845f;
#pragma fuse kernel(qknorm_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float qss = 0.0f;
				for (int d = 0; d < 128; d++) { float x = fusecc_bf16_to_float(q[b][h][i][d]); qss += x * x; }
				const float qr = 1.0f / sqrtf(qss / 128.0f + eps);
				float m = -INFINITY, l = 0.0f, acc[128];
				for (int d = 0; d < 128; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float kss = 0.0f;
					for (int d = 0; d < 128; d++) { float x = fusecc_bf16_to_float(k[b][h][j][d]); kss += x * x; }
					const float kr = 1.0f / sqrtf(kss / 128.0f + eps);
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * qr * qw[d] * fusecc_bf16_to_float(k[b][h][j][d]) * kr * kw[d];
					s *= scale;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * fusecc_bf16_to_float(v[b][h][j][d]);
					m = mn;
				}
				for (int d = 0; d < 128; d++) o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
