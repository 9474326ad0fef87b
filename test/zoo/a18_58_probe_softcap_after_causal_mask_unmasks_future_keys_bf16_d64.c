/* Probe: a port that applies the causal mask before the soft-cap (the reverse of Gemma's order):
 * cap * tanh(-inf / cap) = -cap, so future keys are NOT masked but weighted with score -cap. A
 * fuser that reads `j > i ? -INFINITY : s` as the causal range would skip them. */
#include <math.h>
#include "fusecc.h"

void capped_after_mask(int B, int H, int N, float cap, const fusecc_bf16 q[B][H][N][64], const fusecc_bf16 k[B][H][N][64],
		       const fusecc_bf16 v[B][H][N][64], fusecc_bf16 o[B][H][N][64])
{
#pragma fuse kernel(capped_after_mask) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N], m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float x = 0.0f;
					for (int d = 0; d < 64; d++) x += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					x = j > i ? -INFINITY : x * 0.125f;
					s[j] = cap * tanhf(x / cap);
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) { s[j] = expf(s[j] - m); l += s[j]; }
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += s[j] * fusecc_bf16_to_float(v[b][h][j][d]);
					o[b][h][i][d] = fusecc_float_to_bf16(a / l);
				}
			}
}
