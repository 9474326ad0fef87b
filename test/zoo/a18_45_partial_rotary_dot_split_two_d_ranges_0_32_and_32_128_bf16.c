/* GPT-NeoX partial rotary port: the score is accumulated over the rotary part of the head
 * (d < 32) and then the pass-through part (32 <= d < 128) in two loops over the same arrays. */
#include <math.h>
#include "fusecc.h"

void neox_attn(int B, int H, int N, const fusecc_bf16 q[B][H][N][128], const fusecc_bf16 k[B][H][N][128],
	       const fusecc_bf16 v[B][H][N][128], fusecc_bf16 o[B][H][N][128])
{
#pragma fuse kernel(neox_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N], m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float rot = 0.0f, pass = 0.0f;
					for (int d = 0; d < 32; d++) rot += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					for (int d = 32; d < 128; d++) pass += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					s[j] = (rot + pass) * 0.08838834764831845f;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j <= i; j++) { s[j] = expf(s[j] - m); l += s[j]; }
				for (int d = 0; d < 128; d++) {
					float a = 0.0f;
					for (int j = 0; j <= i; j++) a += s[j] * fusecc_bf16_to_float(v[b][h][j][d]);
					o[b][h][i][d] = fusecc_float_to_bf16(a / l);
				}
			}
}
