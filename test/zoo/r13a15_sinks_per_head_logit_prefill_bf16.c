/* gpt-oss style attention sinks: a learned logit per head joins the softmax denominator
 * (never the numerator); causal, sliding window W, bf16, D 64. */
#include <math.h>
#include "fusecc.h"

void sink_swa(int B, int H, int N, int W, const float sinks[H],
	      const fusecc_bf16 q[B][H][N][64], const fusecc_bf16 k[B][H][N][64],
	      const fusecc_bf16 v[B][H][N][64], fusecc_bf16 o[B][H][N][64])
{
#pragma fuse kernel(sink_swa) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int j0 = i - W + 1 > 0 ? i - W + 1 : 0;
				float m = sinks[h];
				for (int j = j0; j <= i; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++)
						t += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					m = fmaxf(m, t * 0.125f);
				}
				float l = expf(sinks[h] - m);
				float acc[64] = {0};
				for (int j = j0; j <= i; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++)
						t += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					float p = expf(t * 0.125f - m);
					l += p;
					for (int d = 0; d < 64; d++) acc[d] += p * fusecc_bf16_to_float(v[b][h][j][d]);
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
