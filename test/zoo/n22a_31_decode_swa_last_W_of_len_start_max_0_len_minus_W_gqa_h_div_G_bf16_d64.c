/* Sliding-window decode (Mistral / Qwen2 with a full cache): keys from max(0, len - W) to len - 1,
 * GQA by h / G, bf16. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void swa_decode(int B, int H, int G, int T, int W, const int32_t lens[B], const fusecc_bf16 q[B][H][64],
		const fusecc_bf16 k[B][H / G][T][64], const fusecc_bf16 v[B][H / G][T][64], fusecc_bf16 o[B][H][64])
{
#pragma fuse kernel(swa_decode) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int len = lens[b];
			const int start = len - W > 0 ? len - W : 0;
			float m = -INFINITY;
			for (int t = start; t < len; t++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++)
					s += fusecc_bf16_to_float(q[b][h][d]) * fusecc_bf16_to_float(k[b][h / G][t][d]);
				m = fmaxf(m, s * 0.125f);
			}
			float l = 0.0f, acc[64] = {0};
			for (int t = start; t < len; t++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++)
					s += fusecc_bf16_to_float(q[b][h][d]) * fusecc_bf16_to_float(k[b][h / G][t][d]);
				float p = expf(s * 0.125f - m);
				l += p;
				for (int d = 0; d < 64; d++) acc[d] += p * fusecc_bf16_to_float(v[b][h / G][t][d]);
			}
			for (int d = 0; d < 64; d++) o[b][h][d] = fusecc_float_to_bf16(acc[d] / l);
		}
}
