/* Causal prefill attention in bf16, D = 64, with row and step tiles other than the
 * samples' (tile(i:64, j:32)): the bf16 tensor-core and matrix-core products, and a head
 * dimension of 64 for both products. The mask is a domain (j <= i), the scores a local
 * array s[N] that the fuser shrinks to the step. */
#include <math.h>

#include "fusecc.h"

#define D 64

void bf16_causal(int B, int H, int N, float scale, const fusecc_bf16 q[B][H][N][D], const fusecc_bf16 k[B][H][N][D],
		 const fusecc_bf16 v[B][H][N][D], fusecc_bf16 o[B][H][N][D])
{
#pragma fuse kernel(bf16_causal) parallel(b, h, i) tile(i:64, j:32) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					s[j] = dot * scale;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j <= i; j++)
					l += expf(s[j] - m);
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float p = expf(s[j] - m) / l;
					for (int d = 0; d < D; d++)
						acc[d] += p * fusecc_bf16_to_float(v[b][h][j][d]);
				}
				for (int d = 0; d < D; d++)
					o[b][h][i][d] = fusecc_float_to_bf16(acc[d]);
			}
}
