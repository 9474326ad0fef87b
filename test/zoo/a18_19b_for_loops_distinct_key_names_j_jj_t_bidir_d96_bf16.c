/* The same encoder as a18_19 written with for loops; the three key loops named j, jj and t (as people name
 * successive loops in one scope), head dim 96, bf16. Refused with a message about the row loop i. */
#include <math.h>
#include "fusecc.h"

void enc_attn(int B, int H, int N, float scale, const fusecc_bf16 q[B][H][N][96], const fusecc_bf16 k[B][H][N][96],
	      const fusecc_bf16 v[B][H][N][96], fusecc_bf16 o[B][H][N][96])
{
#pragma fuse kernel(enc_attn)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float sc[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float acc = 0.0f;
					for (int d = 0; d < 96; d++) acc += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					sc[j] = acc * scale;
					mx = fmaxf(mx, sc[j]);
				}
				float den = 0.0f;
				for (int jj = 0; jj < N; jj++) { sc[jj] = expf(sc[jj] - mx); den += sc[jj]; }
				for (int e = 0; e < 96; e++) {
					float acc = 0.0f;
					for (int t = 0; t < N; t++) acc += sc[t] * fusecc_bf16_to_float(v[b][h][t][e]);
					o[b][h][i][e] = fusecc_float_to_bf16(acc / den);
				}
			}
}
