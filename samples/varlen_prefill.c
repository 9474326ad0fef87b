/* varlen_prefill.c: causal prefill over a batch of sequences of different lengths, packed
 * as FlashAttention's varlen functions take them: the token rows of every sequence are
 * concatenated, and sequence s holds rows cu_seqlens[s] ... cu_seqlens[s + 1] - 1 of q, k,
 * v and o. The offsets rise from cu_seqlens[0] = 0 to at most TOTAL; rows past the last
 * sequence are left as they are. An offset out of range, or offsets that fall, are the
 * caller's contract, as in every engine.
 * Style: int32 offsets, the row loop bounded by the sequence's length, packed reads and
 * the packed store through the offset; max, sum of exp, P.V with j outside d.
 * fp16 storage, fp32 math, D = 128; lengths 128 ... 8K in one batch. */
#include <math.h>
#include <stdint.h>

#define D 128

void varlen_prefill(int S, int TOTAL, int H, float scale, const int32_t cu_seqlens[S + 1],
		    const _Float16 q[TOTAL][H][D], const _Float16 k[TOTAL][H][D],
		    const _Float16 v[TOTAL][H][D], _Float16 o[TOTAL][H][D])
{
#pragma fuse kernel(varlen_prefill) parallel(s, h, i) tile(i:128, j:64) rolling(j)
	for (int s = 0; s < S; s++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < cu_seqlens[s + 1] - cu_seqlens[s]; i++) {
				const int row = cu_seqlens[s];
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += (float)q[row + i][h][d] * (float)k[row + j][h][d];
					m = fmaxf(m, dot * scale);
				}
				float l = 0.0f;
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += (float)q[row + i][h][d] * (float)k[row + j][h][d];
					float p = expf(dot * scale - m);
					l += p;
					for (int d = 0; d < D; d++)
						acc[d] += p * (float)v[row + j][h][d];
				}
				for (int d = 0; d < D; d++)
					o[row + i][h][d] = (_Float16)(acc[d] / l);
			}
}
