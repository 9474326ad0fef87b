/* A padded batch for an encoder: sequence b has len[b] real tokens; padded query rows get zeros
 * (an early `continue` after zeroing), real rows attend to the real keys only. bf16, head dim 64. */
#include <math.h>
#include "fusecc.h"

void enc_padded(int B, int H, int N, const int len[B], const fusecc_bf16 q[B][H][N][64], const fusecc_bf16 k[B][H][N][64],
		const fusecc_bf16 v[B][H][N][64], fusecc_bf16 o[B][H][N][64])
{
#pragma fuse kernel(enc_padded) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				if (i >= len[b]) {
					for (int d = 0; d < 64; d++) o[b][h][i][d] = fusecc_float_to_bf16(0.0f);
					continue;
				}
				float w[N], m = -INFINITY;
				for (int j = 0; j < len[b]; j++) {
					float x = 0.0f;
					for (int d = 0; d < 64; d++) x += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					w[j] = x * 0.125f;
					m = fmaxf(m, w[j]);
				}
				float z = 0.0f;
				for (int j = 0; j < len[b]; j++) { w[j] = expf(w[j] - m); z += w[j]; }
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j < len[b]; j++) a += w[j] * fusecc_bf16_to_float(v[b][h][j][d]);
					o[b][h][i][d] = fusecc_float_to_bf16(a / z);
				}
			}
}
