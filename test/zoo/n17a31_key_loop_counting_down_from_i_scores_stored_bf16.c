/* Causal attention with the key loops counting down from the query (j = i .. 0), scores
 * stored in s[j]; bf16, run-time D. */
#include <math.h>
#include "fusecc.h"

void causal_down(int B, int H, int N, int D, const fusecc_bf16 q[B][H][N][D], const fusecc_bf16 k[B][H][N][D],
		 const fusecc_bf16 v[B][H][N][D], fusecc_bf16 o[B][H][N][D])
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(causal_down) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = i; j >= 0; j--) {
					float t = 0.0f;
					for (int d = 0; d < D; d++)
						t += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					s[j] = t * scale;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = i; j >= 0; j--) { s[j] = expf(s[j] - m); l += s[j]; }
				for (int d = 0; d < D; d++) {
					float a = 0.0f;
					for (int j = i; j >= 0; j--) a += s[j] * fusecc_bf16_to_float(v[b][h][j][d]);
					o[b][h][i][d] = fusecc_float_to_bf16(a / l);
				}
			}
}
