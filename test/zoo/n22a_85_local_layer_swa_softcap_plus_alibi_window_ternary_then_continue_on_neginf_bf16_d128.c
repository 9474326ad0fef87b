/* A research combo (Gemma-2 local layer + ALiBi experiment): causal sliding window written as one
 * ternary on the score, soft-capping, then an ALiBi bias from a slope array; bf16, D = 128. */
#include <math.h>
#include "fusecc.h"

void combo_attn(int B, int H, int N, int W, float cap, const float slopes[H], const fusecc_bf16 q[B][H][N][128],
		const fusecc_bf16 k[B][H][N][128], const fusecc_bf16 v[B][H][N][128], fusecc_bf16 o[B][H][N][128])
{
#pragma fuse kernel(combo_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[128] = {0};
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					s = cap * tanhf(s * 0.08838834764831845f / cap) - slopes[h] * (float)(i - j);
					s = (j > i || i - j >= W) ? -INFINITY : s;
					if (s == -INFINITY)
						continue;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * fusecc_bf16_to_float(v[b][h][j][d]);
					m = mn;
				}
				for (int d = 0; d < 128; d++) o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
