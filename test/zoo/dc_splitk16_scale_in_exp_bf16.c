/* dc_splitk16_scale_in_exp_bf16.c: decode attention with an explicit split into 16
 * chunks (FlashDecoding), bf16 K/V, fp32 query and output, run-time head dim (96).
 * Style: run-time `int D`, the scale folded into the exponent (expf((s - m) * scale),
 * max over raw dots), max in the score loop with fmaxf, raw dots stored in s[L], sum
 * x = x + e, d-outer P.V. splitk(j:16). */
#include <math.h>
#include "fusecc.h"

void decode_splitk16(int B, int H, int L, int D, float scale,
		     const float q[B][H][D], const fusecc_bf16 k[B][H][L][D],
		     const fusecc_bf16 v[B][H][L][D], float o[B][H][D])
{
#pragma fuse kernel(decode_splitk16) parallel(b, h) splitk(j:16)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float s[L];
			float m = -INFINITY;
			for (int j = 0; j < L; j++) {
				float dot = 0.0f;
				for (int d = 0; d < D; d++)
					dot += q[b][h][d] * fusecc_bf16_to_float(k[b][h][j][d]);
				s[j] = dot;
				m = fmaxf(m, dot);
			}
			float l = 0.0f;
			for (int j = 0; j < L; j++)
				l = l + expf((s[j] - m) * scale);
			for (int d = 0; d < D; d++) {
				float acc = 0.0f;
				for (int j = 0; j < L; j++)
					acc = acc + expf((s[j] - m) * scale) * fusecc_bf16_to_float(v[b][h][j][d]);
				o[b][h][d] = acc / l;
			}
		}
}
