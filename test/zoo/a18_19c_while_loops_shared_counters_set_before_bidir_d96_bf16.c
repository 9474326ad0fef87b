/* An embedded-systems C programmer (C89 habits): counters declared once at the top of the row,
 * every loop a counted while over the same counter names (j for keys, d for the head dim),
 * encoder without a mask, head dim 96, bf16, the scale passed by the caller. */
#include <math.h>
#include "fusecc.h"

void enc_attn_w(int B, int H, int N, float scale, const fusecc_bf16 q[B][H][N][96], const fusecc_bf16 k[B][H][N][96],
		const fusecc_bf16 v[B][H][N][96], fusecc_bf16 o[B][H][N][96])
{
#pragma fuse kernel(enc_attn_w)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float sc[N];
				float mx = -INFINITY, den = 0.0f, acc;
				int j, d;
				j = 0;
				while (j < N) {
					acc = 0.0f;
					d = 0;
					while (d < 96) { acc += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]); d++; }
					sc[j] = acc * scale;
					if (sc[j] > mx) mx = sc[j];
					j++;
				}
				j = 0;
				while (j < N) { sc[j] = expf(sc[j] - mx); den += sc[j]; j++; }
				d = 0;
				while (d < 96) {
					acc = 0.0f;
					j = 0;
					while (j < N) { acc += sc[j] * fusecc_bf16_to_float(v[b][h][j][d]); j++; }
					o[b][h][i][d] = fusecc_float_to_bf16(acc / den);
					d++;
				}
			}
}
