/* Qwen3Attention's q_norm / k_norm: an RMSNorm over head_dim applied per head to q (and k)
 * before RoPE, done in place on the projected q [tokens][heads][128] as a C inference engine
 * does it (the row read twice, then overwritten); eps 1e-6, weight [128]. */
#include <math.h>
#include "fusecc.h"

void qk_norm_inplace(int T, int NH, float eps, fusecc_bf16 q[T][NH][128], const fusecc_bf16 q_norm_w[128])
{
#pragma fuse kernel(qk_norm) parallel(t, h)
	for (int t = 0; t < T; t++)
		for (int h = 0; h < NH; h++) {
			float ss = 0.0f;
			for (int d = 0; d < 128; d++) {
				float x = fusecc_bf16_to_float(q[t][h][d]);
				ss += x * x;
			}
			const float r = 1.0f / sqrtf(ss / 128.0f + eps);
			for (int d = 0; d < 128; d++)
				q[t][h][d] = fusecc_float_to_bf16(fusecc_bf16_to_float(q_norm_w[d]) * (fusecc_bf16_to_float(q[t][h][d]) * r));
		}
}
