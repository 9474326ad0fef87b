/* Whisper-like decoder cross attention ported from PyTorch with the encoder padding mask as
 * uint8 [B][S] (1 = keep), layout [B][T][H][64] (no transpose), no schedule clause. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void whisper_xattn(int B, int T, int S, int H, const fusecc_bf16 q[B][T][H][64], const fusecc_bf16 k[B][S][H][64],
		   const fusecc_bf16 v[B][S][H][64], const uint8_t enc_mask[B][S], fusecc_bf16 out[B][T][H][64])
{
	const float scale = 0.125f;
#pragma fuse kernel(whisper_xattn)
	for (int b = 0; b < B; b++)
		for (int t = 0; t < T; t++)
			for (int h = 0; h < H; h++) {
				float sc[S];
				float m = -INFINITY;
				for (int s = 0; s < S; s++) {
					float dot = 0.0f;
					for (int d = 0; d < 64; d++)
						dot += fusecc_bf16_to_float(q[b][t][h][d]) * fusecc_bf16_to_float(k[b][s][h][d]);
					sc[s] = enc_mask[b][s] ? dot * scale : -INFINITY;
					m = fmaxf(m, sc[s]);
				}
				float z = 0.0f;
				for (int s = 0; s < S; s++) { sc[s] = expf(sc[s] - m); z += sc[s]; }
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int s = 0; s < S; s++) a += sc[s] * fusecc_bf16_to_float(v[b][s][h][d]);
					out[b][t][h][d] = fusecc_float_to_bf16(a / z);
				}
			}
}
