/* Llama-4 chunked local attention with the chunk start written as i - i % CHUNK (not (i/C)*C),
 * run-time head dim, bf16, two-pass with scores kept in a VLA. */
#include <math.h>
#include "fusecc.h"

void chunk_local(int B, int H, int N, int D, int CHUNK, const fusecc_bf16 q[B][H][N][D],
		 const fusecc_bf16 k[B][H][N][D], const fusecc_bf16 v[B][H][N][D], fusecc_bf16 o[B][H][N][D])
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(chunk_local) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int j0 = i - i % CHUNK;
				float s[N];
				float m = -INFINITY;
				for (int j = j0; j <= i; j++) {
					float t = 0.0f;
					for (int d = 0; d < D; d++) t += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					s[j] = t * scale;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = j0; j <= i; j++) { s[j] = expf(s[j] - m); l += s[j]; }
				for (int d = 0; d < D; d++) {
					float a = 0.0f;
					for (int j = j0; j <= i; j++) a += s[j] * fusecc_bf16_to_float(v[b][h][j][d]);
					o[b][h][i][d] = fusecc_float_to_bf16(a / l);
				}
			}
}
