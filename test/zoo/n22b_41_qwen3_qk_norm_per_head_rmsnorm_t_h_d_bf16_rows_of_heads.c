/* Qwen3's q_norm/k_norm: RMSNorm over head_dim of each head of q[T][H][128] (bf16), weight[128],
 * written by an inference engineer as a (t, h) nest before RoPE. */
#include <math.h>
#include "fusecc.h"

#define HEAD_DIM 128

void qk_norm(int T, int H, float eps, const fusecc_bf16 q[T][H][HEAD_DIM], const fusecc_bf16 w[HEAD_DIM],
	     fusecc_bf16 qn[T][H][HEAD_DIM])
{
#pragma fuse kernel(qk_norm) parallel(t, h)
	for (int t = 0; t < T; t++)
		for (int h = 0; h < H; h++) {
			float var = 0.0f;
			for (int d = 0; d < HEAD_DIM; d++) {
				const float v = fusecc_bf16_to_float(q[t][h][d]);
				var += v * v;
			}
			var /= HEAD_DIM;
			const float r = 1.0f / sqrtf(var + eps);
			for (int d = 0; d < HEAD_DIM; d++)
				qn[t][h][d] = fusecc_float_to_bf16(fusecc_bf16_to_float(w[d]) *
								   (fusecc_bf16_to_float(q[t][h][d]) * r));
		}
}
