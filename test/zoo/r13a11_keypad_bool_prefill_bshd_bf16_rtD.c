/* nn.MultiheadAttention port: key_padding_mask as bool, True = ignore (PyTorch's sense),
 * [B][N][H][D] layout (batch_first), run-time D. */
#include <math.h>
#include <stdbool.h>
#include "fusecc.h"

void mha_kpm(int B, int N, int H, int D, const bool key_padding_mask[B][N],
	     const fusecc_bf16 q[B][N][H][D], const fusecc_bf16 k[B][N][H][D],
	     const fusecc_bf16 v[B][N][H][D], fusecc_bf16 o[B][N][H][D])
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(mha_kpm) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				float sc[N];
				for (int j = 0; j < N; j++) {
					float t = 0.0f;
					for (int d = 0; d < D; d++)
						t += fusecc_bf16_to_float(q[b][i][h][d]) * fusecc_bf16_to_float(k[b][j][h][d]);
					sc[j] = key_padding_mask[b][j] ? -INFINITY : t * scale;
					if (sc[j] > m) m = sc[j];
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) { sc[j] = expf(sc[j] - m); l += sc[j]; }
				for (int d = 0; d < D; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++)
						a += sc[j] * fusecc_bf16_to_float(v[b][j][h][d]);
					o[b][i][h][d] = fusecc_float_to_bf16(a / l);
				}
			}
}
