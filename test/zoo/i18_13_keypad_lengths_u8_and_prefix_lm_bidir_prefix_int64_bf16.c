/* Prefix-LM (PaliGemma / T5-style) prefill: the first prefix_len[b] tokens (int64) see each
 * other bidirectionally, later ones are causal; padded keys dropped through a uint8 mask
 * (0 = pad) with `continue`. bf16, head dim 96 as a const int local. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void prefix_lm_attn(int B, int H, int N, const int64_t prefix_len[B], const uint8_t key_valid[B][N],
		    const fusecc_bf16 q[B][H][N][96], const fusecc_bf16 k[B][H][N][96], const fusecc_bf16 v[B][H][N][96],
		    fusecc_bf16 o[B][H][N][96])
{
	const int hd = 96;
	const float scale = 1.0f / sqrtf((float)hd);
#pragma fuse kernel(prefix_lm_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, den = 0.0f, acc[96];
				for (int d = 0; d < hd; d++) acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					if (j > i && j >= prefix_len[b]) continue;
					if (!key_valid[b][j]) continue;
					float s = 0.0f;
					for (int d = 0; d < hd; d++) s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					s *= scale;
					if (s > m) {
						const float c = expf(m - s);
						den *= c;
						for (int d = 0; d < hd; d++) acc[d] *= c;
						m = s;
					}
					const float p = expf(s - m);
					den += p;
					for (int d = 0; d < hd; d++) acc[d] += p * fusecc_bf16_to_float(v[b][h][j][d]);
				}
				for (int d = 0; d < hd; d++) o[b][h][i][d] = fusecc_float_to_bf16(den > 0.0f ? acc[d] / den : 0.0f);
			}
}
