/* DeepSeek MLA prefill (non-absorbed): q.k over DK = 192 (nope + rope), v of DV = 128, both as
 * run-time ints; causal as `s = (j <= i) ? s : -INFINITY`. bf16 storage. */
#include <math.h>
#include "fusecc.h"

void mla_prefill(int B, int H, int N, int DK, int DV, const fusecc_bf16 q[B][H][N][DK], const fusecc_bf16 k[B][H][N][DK],
		 const fusecc_bf16 v[B][H][N][DV], fusecc_bf16 o[B][H][N][DV])
{
	const float scale = 1.0f / sqrtf((float)DK);
#pragma fuse kernel(mla_prefill) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				float l = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < DK; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					s = (j <= i) ? s * scale : -INFINITY;
					m = fmaxf(m, s);
				}
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < DK; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					s = (j <= i) ? s * scale : -INFINITY;
					l += expf(s - m);
				}
				for (int e = 0; e < DV; e++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) {
						float s = 0.0f;
						for (int d = 0; d < DK; d++)
							s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
						s = (j <= i) ? s * scale : -INFINITY;
						acc += expf(s - m) * fusecc_bf16_to_float(v[b][h][j][e]);
					}
					o[b][h][i][e] = fusecc_float_to_bf16(acc / l);
				}
			}
}
