/* DeepSeek-V2 MLA prefill by someone who does not want to materialise torch.cat([k_nope,
 * k_pe.expand(H)]): the key's d-th element is picked by d < 128 from k_nope (per head) or
 * k_pe (shared across heads); q is already (B, H, N, 192). v_head_dim 128. Scale is
 * 1/sqrt(192). bf16 storage, bshd caches. */
#include <math.h>
#include "fusecc.h"

void mla_prefill_cat(int B, int H, int N, const fusecc_bf16 q[B][H][N][192], const fusecc_bf16 k_nope[B][N][H][128],
		     const fusecc_bf16 k_pe[B][N][64], const fusecc_bf16 v[B][N][H][128], fusecc_bf16 o[B][N][H][128])
{
	const float softmax_scale = 1.0f / sqrtf(192.0f);
#pragma fuse kernel(mla_prefill_cat) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[128];
				for (int e = 0; e < 128; e++)
					acc[e] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 192; d++) {
						float kd = d < 128 ? fusecc_bf16_to_float(k_nope[b][j][h][d])
								   : fusecc_bf16_to_float(k_pe[b][j][d - 128]);
						s += fusecc_bf16_to_float(q[b][h][i][d]) * kd;
					}
					s *= softmax_scale;
					float mn = fmaxf(m, s);
					float c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int e = 0; e < 128; e++)
						acc[e] = acc[e] * c + p * fusecc_bf16_to_float(v[b][j][h][e]);
					m = mn;
				}
				for (int e = 0; e < 128; e++)
					o[b][i][h][e] = fusecc_float_to_bf16(acc[e] / l);
			}
}
