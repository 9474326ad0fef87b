/* Unmasked prefill attention in bf16, D = 64, 128-row tiles over steps of 32
 * (tile(i:128, j:32)): on sm_90a the P.V product runs on wgmma (64 columns, bf16) while
 * q.k, 32 columns wide, stays on mma.sync over the row operand as wgmma stores it. The
 * second product reads V through a local acc[D] with j outside d. */
#include <math.h>

#include "fusecc.h"

#define D 64

void bf16_wide(int B, int H, int N, float scale, const fusecc_bf16 q[B][H][N][D], const fusecc_bf16 k[B][H][N][D],
	       const fusecc_bf16 v[B][H][N][D], fusecc_bf16 o[B][H][N][D])
{
#pragma fuse kernel(bf16_wide) parallel(b, h, i) tile(i:128, j:32) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					m = fmaxf(m, scale * s);
				}
				float l = 0.0f;
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					float p = expf(scale * s - m);
					l += p;
					for (int d = 0; d < D; d++)
						acc[d] += p * fusecc_bf16_to_float(v[b][h][j][d]);
				}
				for (int d = 0; d < D; d++)
					o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
