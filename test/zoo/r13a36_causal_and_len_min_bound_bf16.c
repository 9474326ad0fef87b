/* Padded batch prefill: each query sees keys j <= min(i, len[b] - 1); query rows past the
 * length are zeroed. bf16, D 64. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void pad_causal(int B, int H, int N, const int32_t len[B], const fusecc_bf16 q[B][H][N][64],
		const fusecc_bf16 k[B][H][N][64], const fusecc_bf16 v[B][H][N][64],
		fusecc_bf16 o[B][H][N][64])
{
#pragma fuse kernel(pad_causal) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				if (i >= len[b]) {
					for (int d = 0; d < 64; d++) o[b][h][i][d] = fusecc_float_to_bf16(0.0f);
					continue;
				}
				const int hi = i < len[b] - 1 ? i : len[b] - 1;
				float m = -INFINITY;
				for (int j = 0; j <= hi; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++)
						t += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					m = fmaxf(m, t * 0.125f);
				}
				float l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int j = 0; j <= hi; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++)
						t += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					float p = expf(t * 0.125f - m);
					l += p;
					for (int d = 0; d < 64; d++) acc[d] += p * fusecc_bf16_to_float(v[b][h][j][d]);
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
