/* Prefix caching written as one loop over P + T keys with a ternary picking the source. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"
void prefix_attn(int H, int P, int T, const fusecc_bf16 q[H][T][64], const fusecc_bf16 kc[H][P][64],
		 const fusecc_bf16 vc[H][P][64], const fusecc_bf16 k[H][T][64], const fusecc_bf16 v[H][T][64],
		 fusecc_bf16 o[H][T][64])
{
#pragma fuse kernel(prefix_attn) parallel(h, i)
	for (int h = 0; h < H; h++)
		for (int i = 0; i < T; i++) {
			float s[P + T];
			float m = -INFINITY;
			for (int j = 0; j < P + i + 1; j++) {
				float dot = 0.0f;
				for (int d = 0; d < 64; d++) {
					float kk = j < P ? fusecc_bf16_to_float(kc[h][j][d]) : fusecc_bf16_to_float(k[h][j - P][d]);
					dot += fusecc_bf16_to_float(q[h][i][d]) * kk;
				}
				s[j] = dot * 0.125f;
				m = fmaxf(m, s[j]);
			}
			float l = 0.0f;
			for (int j = 0; j < P + i + 1; j++) { s[j] = expf(s[j] - m); l += s[j]; }
			for (int d = 0; d < 64; d++) {
				float acc = 0.0f;
				for (int j = 0; j < P + i + 1; j++)
					acc += s[j] * (j < P ? fusecc_bf16_to_float(vc[h][j][d]) : fusecc_bf16_to_float(v[h][j - P][d]));
				o[h][i][d] = fusecc_float_to_bf16(acc / l);
			}
		}
}
