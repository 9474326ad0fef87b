/* DeepSeek MLA decode (absorbed): score over DK = 576 -> run-time DK, values DV, split-k. */
#include <math.h>
#include "fusecc.h"

void mla_decode(int B, int H, int L, int DK, int DV, float scale,
		const fusecc_bf16 q[B][H][DK], const fusecc_bf16 kv[B][L][DK],
		const fusecc_bf16 vv[B][L][DV], fusecc_bf16 o[B][H][DV])
{
#pragma fuse kernel(mla_decode) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY;
			for (int t = 0; t < L; t++) {
				float s = 0.0f;
				for (int d = 0; d < DK; d++)
					s += fusecc_bf16_to_float(q[b][h][d]) * fusecc_bf16_to_float(kv[b][t][d]);
				m = fmaxf(m, s * scale);
			}
			float l = 0.0f;
			float acc[DV];
			for (int d = 0; d < DV; d++) acc[d] = 0.0f;
			for (int t = 0; t < L; t++) {
				float s = 0.0f;
				for (int d = 0; d < DK; d++)
					s += fusecc_bf16_to_float(q[b][h][d]) * fusecc_bf16_to_float(kv[b][t][d]);
				float p = expf(s * scale - m);
				l += p;
				for (int d = 0; d < DV; d++) acc[d] += p * fusecc_bf16_to_float(vv[b][t][d]);
			}
			for (int d = 0; d < DV; d++) o[b][h][d] = fusecc_float_to_bf16(acc[d] / l);
		}
}
