/* pf_global_rtD_bf16_recompute.c: unmasked prefill attention, bf16, meant for head dim 256
 * (Gemma) but with the head dim as a run-time `int D`.
 * Style: no score buffer, q.k recomputed in three passes; the max is over the scaled
 * score, exp(scale * s - m); sum written x = x + e; j-outer P.V into acc[D] with
 * acc[d] = acc[d] + p * v; normalised after. rolling(j), parallel(b, h, i), no tile. */
#include <math.h>
#include "fusecc.h"

void global_bf16(int B, int H, int N, int D, float scale,
		 const fusecc_bf16 q[B][H][N][D], const fusecc_bf16 k[B][H][N][D],
		 const fusecc_bf16 v[B][H][N][D], fusecc_bf16 o[B][H][N][D])
{
#pragma fuse kernel(global_bf16) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s = s + fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					m = fmaxf(m, scale * s);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s = s + fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					l = l + expf(scale * s - m);
				}
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s = s + fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					float p = expf(scale * s - m);
					for (int d = 0; d < D; d++)
						acc[d] = acc[d] + p * fusecc_bf16_to_float(v[b][h][j][d]);
				}
				for (int d = 0; d < D; d++)
					o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
