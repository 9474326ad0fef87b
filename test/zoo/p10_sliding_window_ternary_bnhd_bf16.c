/* Sliding-window causal attention (prefill), bf16, layout [B][N][H][64], literal head dim 64.
 * Style: window + causal mask as one ternary over the full key range
 * (x = (j > i || i - j >= W) ? -INFINITY : x); scale parameter; scores in a local s[N];
 * j-outer P.V into acc[64]; only tile() given, no rolling/splitk. */
#include <math.h>
#include "fusecc.h"

void swa_bnhd(int B, int N, int H, int W, float scale,
	      const fusecc_bf16 q[B][N][H][64], const fusecc_bf16 k[B][N][H][64],
	      const fusecc_bf16 v[B][N][H][64], fusecc_bf16 o[B][N][H][64])
{
#pragma fuse kernel(swa_bnhd) parallel(b, i, h) tile(i:64, j:64)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N; i++)
			for (int h = 0; h < H; h++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float x = 0.0f;
					for (int d = 0; d < 64; d++)
						x += fusecc_bf16_to_float(q[b][i][h][d]) *
						     fusecc_bf16_to_float(k[b][j][h][d]);
					x *= scale;
					x = (j > i || i - j >= W) ? -INFINITY : x;
					s[j] = x;
					m = fmaxf(m, x);
				}
				float l = 0.0f;
				float acc[64];
				for (int d = 0; d < 64; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float p = expf(s[j] - m);
					l += p;
					for (int d = 0; d < 64; d++)
						acc[d] += p * fusecc_bf16_to_float(v[b][j][h][d]);
				}
				for (int d = 0; d < 64; d++)
					o[b][i][h][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
