/* Qwen3's q_norm applied per head: RMSNorm over D=128 of each (token, head) row of q[T][H][128],
 * one weight vector shared by the heads; bf16; two parallel loops. */
#include <math.h>
#include "fusecc.h"

void q_norm(int T, int H, float eps, const fusecc_bf16 q[T][H][128], const fusecc_bf16 w[128], fusecc_bf16 y[T][H][128])
{
#pragma fuse kernel(q_norm) parallel(t, h)
	for (int t = 0; t < T; t++)
		for (int h = 0; h < H; h++) {
			float ss = 0.0f;
			for (int d = 0; d < 128; d++) { float x = fusecc_bf16_to_float(q[t][h][d]); ss += x * x; }
			const float r = 1.0f / sqrtf(ss / 128.0f + eps);
			for (int d = 0; d < 128; d++)
				y[t][h][d] = fusecc_float_to_bf16(fusecc_bf16_to_float(q[t][h][d]) * r * fusecc_bf16_to_float(w[d]));
		}
}
