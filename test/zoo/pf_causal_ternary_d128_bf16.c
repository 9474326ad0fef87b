/* pf_causal_ternary_d128_bf16.c: causal prefill attention in bf16.
 * Style: bf16 storage (fusecc.h conversions), `#define D 128`, full j range with the causal
 * mask as a ternary on the score (s = j > i ? -INFINITY : s), the max taken in the score
 * loop, initialised with -FLT_MAX; the exponentials are stored back into s[j] and summed
 * in the same loop; P.V d-outer, normalised after. rolling(j), tile(i:128, j:64). */
#include <float.h>
#include <math.h>
#include "fusecc.h"

#define D 128

void causal_bf16(int B, int H, int N, float scale,
		 const fusecc_bf16 q[B][H][N][D], const fusecc_bf16 k[B][H][N][D],
		 const fusecc_bf16 v[B][H][N][D], fusecc_bf16 o[B][H][N][D])
{
#pragma fuse kernel(causal_bf16) parallel(b, h, i) tile(i:128, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -FLT_MAX;
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += fusecc_bf16_to_float(q[b][h][i][d]) *
						       fusecc_bf16_to_float(k[b][h][j][d]);
					float x = dot * scale;
					x = j > i ? -INFINITY : x;
					s[j] = x;
					m = fmaxf(m, x);
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++) {
					s[j] = expf(s[j] - m);
					sum += s[j];
				}
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += s[j] * fusecc_bf16_to_float(v[b][h][j][d]);
					o[b][h][i][d] = fusecc_float_to_bf16(acc / sum);
				}
			}
}
