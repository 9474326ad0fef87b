/* The same causal attention with the score declared unset and an else arm: `float s; if (j <= i) { s = 0;
 * for (d) s += q.k; s *= scale; } else { s = -INFINITY; }` (the masked branch sets the score). */
#include <math.h>
#include "fusecc.h"
void chunked_attn(int B, int H, int N, const fusecc_bf16 q[B][H][N][128], const fusecc_bf16 k[B][H][N][128],
		  const fusecc_bf16 v[B][H][N][128], fusecc_bf16 o[B][H][N][128])
{
	const float scale = 1.0f / sqrtf(128.0f);
#pragma fuse kernel(chunked_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float sc[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s;
					if (j <= i) {
						s = 0.0f;
						for (int d = 0; d < 128; d++) s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
						s *= scale;
					} else {
						s = -INFINITY;
					}
					sc[j] = s;
					m = fmaxf(m, s);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) { sc[j] = expf(sc[j] - m); l += sc[j]; }
				for (int d = 0; d < 128; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += sc[j] * fusecc_bf16_to_float(v[b][h][j][d]);
					o[b][h][i][d] = fusecc_float_to_bf16(a / l);
				}
			}
}
