/* MPT-7B prefill: ALiBi with precomputed slopes [H] (non-power-of-two head counts interleave),
 * bias slope * (j - i + 1 - N)... written as MPT does (bias over key positions, relative to the last
 * key: slope * (j - (N - 1))), causal, plus the tokenizer's attention_mask [B][N] as uint8 (1 = keep). */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void mpt_attn(int B, int H, int N, const float alibi_slopes[H], const uint8_t attention_mask[B][N],
	      const fusecc_bf16 q[B][H][N][128], const fusecc_bf16 k[B][H][N][128], const fusecc_bf16 v[B][H][N][128],
	      fusecc_bf16 o[B][H][N][128])
{
	const float softmax_scale = 0.08838834764831845f;
#pragma fuse kernel(mpt_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float w[N], mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					s = s * softmax_scale + alibi_slopes[h] * (float)(j - (N - 1));
					if (j > i || !attention_mask[b][j])
						s = -INFINITY;
					w[j] = s;
					mx = fmaxf(mx, s);
				}
				float z = 0.0f;
				for (int j = 0; j < N; j++) {
					w[j] = expf(w[j] - mx);
					z += w[j];
				}
				for (int d = 0; d < 128; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += w[j] * fusecc_bf16_to_float(v[b][h][j][d]);
					o[b][h][i][d] = fusecc_float_to_bf16(a / z);
				}
			}
}
