/* y07_scratch_scalars_causal_bf16.c: causal prefill written C89-style: the score and
 * probability buffers and the row's max and sum are declared at the top of the head's
 * block, before the row loop, and every row resets them (m = -INFINITY, l = 0) and
 * writes s[0..i] before reading it.
 * Style: bf16 storage with fusecc_bf16_to_float, #define HEAD_DIM 64, scale computed before
 * the region, mask as the loop bound j <= i, max in its own loop, j-outer P.V into
 * acc[HEAD_DIM] (also declared per head). rolling(j), parallel(b, h, i), tile(i:64, j:64). */
#include <math.h>
#include "fusecc.h"

#define HEAD_DIM 64

void causal_c89(int B, int H, int N,
		const fusecc_bf16 q[B][H][N][HEAD_DIM], const fusecc_bf16 k[B][H][N][HEAD_DIM],
		const fusecc_bf16 v[B][H][N][HEAD_DIM], fusecc_bf16 o[B][H][N][HEAD_DIM])
{
	const float scale = 0.125f;

#pragma fuse kernel(causal_c89) parallel(b, h, i) tile(i:64, j:64) rolling(j)
	for (int b = 0; b < B; b++) {
		for (int h = 0; h < H; h++) {
			float s[N], p[N];
			float m, l;
			float acc[HEAD_DIM];
			for (int i = 0; i < N; i++) {
				for (int j = 0; j <= i; j++) {
					float dot = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++)
						dot += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					s[j] = dot * scale;
				}
				m = -INFINITY;
				for (int j = 0; j <= i; j++)
					m = fmaxf(m, s[j]);
				l = 0.0f;
				for (int j = 0; j <= i; j++) {
					p[j] = expf(s[j] - m);
					l += p[j];
				}
				for (int d = 0; d < HEAD_DIM; d++)
					acc[d] = 0.0f;
				for (int j = 0; j <= i; j++)
					for (int d = 0; d < HEAD_DIM; d++)
						acc[d] += p[j] * fusecc_bf16_to_float(v[b][h][j][d]);
				for (int d = 0; d < HEAD_DIM; d++)
					o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
		}
	}
}
