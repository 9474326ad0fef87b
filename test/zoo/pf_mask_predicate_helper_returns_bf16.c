/* Causal sliding-window prefill whose mask is a predicate helper written with early
 * returns (a key after the query, or too far behind it, is not visible), used in an `if`
 * around the score's use, as someone porting FlexAttention's mask_mod to C writes it;
 * bf16 tensors, D = 64, run-time window, online softmax written out. */
#include <math.h>
#include "fusecc.h"

#define HD 64

static int visible(int q_idx, int kv_idx, int window)
{
	if (kv_idx > q_idx)
		return 0;
	if (q_idx - kv_idx >= window)
		return 0;
	return 1;
}

void swa_flex(int B, int H, int N, int window, const fusecc_bf16 q[B][H][N][HD], const fusecc_bf16 k[B][H][N][HD],
              const fusecc_bf16 v[B][H][N][HD], fusecc_bf16 o[B][H][N][HD])
{
	const float scale = 0.125f;
#pragma fuse kernel(swa_flex) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[HD] = {0};
				for (int j = 0; j < N; j++) {
					if (visible(i, j, window)) {
						float s = 0.0f;
						for (int d = 0; d < HD; d++)
							s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
						s *= scale;
						float m_new = fmaxf(m, s);
						float alpha = expf(m - m_new), p = expf(s - m_new);
						l = l * alpha + p;
						for (int d = 0; d < HD; d++)
							acc[d] = acc[d] * alpha + p * fusecc_bf16_to_float(v[b][h][j][d]);
						m = m_new;
					}
				}
				for (int d = 0; d < HD; d++)
					o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
