/* ALiBi decode attention (BLOOM style), bf16, int D; the single query sits at position L-1,
 * so the bias is slopes[h] * (j - (L - 1)) <= 0. Style: slope array parameter; scale
 * parameter; scores in a local s[L]; fmaxf/expf; j-outer P.V into acc[D]; splitk(j). */
#include <math.h>
#include "fusecc.h"

void alibi_decode(int B, int H, int L, int D, float scale, const float slopes[H],
		  const fusecc_bf16 q[B][H][D], const fusecc_bf16 k[B][H][L][D],
		  const fusecc_bf16 v[B][H][L][D], fusecc_bf16 o[B][H][D])
{
#pragma fuse kernel(alibi_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float s[L];
			float m = -INFINITY;
			for (int j = 0; j < L; j++) {
				float dot = 0.0f;
				for (int d = 0; d < D; d++)
					dot += fusecc_bf16_to_float(q[b][h][d]) *
					       fusecc_bf16_to_float(k[b][h][j][d]);
				s[j] = dot * scale + slopes[h] * (float)(j - (L - 1));
				m = fmaxf(m, s[j]);
			}
			float l = 0.0f;
			float acc[D];
			for (int d = 0; d < D; d++)
				acc[d] = 0.0f;
			for (int j = 0; j < L; j++) {
				float p = expf(s[j] - m);
				l += p;
				for (int d = 0; d < D; d++)
					acc[d] += p * fusecc_bf16_to_float(v[b][h][j][d]);
			}
			for (int d = 0; d < D; d++)
				o[b][h][d] = fusecc_float_to_bf16(acc[d] / l);
		}
}
