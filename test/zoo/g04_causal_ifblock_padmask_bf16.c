/* Causal and key padding both written as ifs: one if-block (j <= i) around each pass's
 * body, and inside it a nested mask on the score (if (!keep[b][j]) sc = -INFINITY), bf16
 * storage, #define D 64, the score in a local of the block, j-outer P.V into acc[D]. */
#include <math.h>
#include <stdbool.h>
#include "fusecc.h"
#define D 64

void causal_padmask(int B, int H, int N, float scale, const bool keep[B][N],
                    const fusecc_bf16 q[B][H][N][D], const fusecc_bf16 k[B][H][N][D],
                    const fusecc_bf16 v[B][H][N][D], fusecc_bf16 o[B][H][N][D])
{
#pragma fuse kernel(causal_padmask) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					if (j <= i) {
						float sc = 0.0f;
						for (int d = 0; d < D; d++)
							sc += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
						sc *= scale;
						if (!keep[b][j])
							sc = -INFINITY;
						m = fmaxf(m, sc);
					}
				}
				float l = 0.0f;
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					if (j <= i) {
						float sc = 0.0f;
						for (int d = 0; d < D; d++)
							sc += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
						sc *= scale;
						if (!keep[b][j])
							sc = -INFINITY;
						float p = expf(sc - m);
						l += p;
						for (int d = 0; d < D; d++)
							acc[d] += p * fusecc_bf16_to_float(v[b][h][j][d]);
					}
				}
				for (int d = 0; d < D; d++)
					o[b][h][i][d] = fusecc_float_to_bf16(l > 0.0f ? acc[d] / l : 0.0f);
			}
}
