/* An embedded-systems C programmer: every loop a counted while, indices declared at the top,
 * encoder (no mask) with head dim 96, bf16 tensors, the scale passed by the caller. */
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
				int j = 0;
				while (j < N) {
					float acc = 0.0f;
					int d = 0;
					while (d < 96) { acc += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]); d++; }
					sc[j] = acc * scale;
					mx = fmaxf(mx, sc[j]);
					j++;
				}
				float den = 0.0f;
				int jj = 0;
				while (jj < N) { sc[jj] = expf(sc[jj] - mx); den += sc[jj]; jj++; }
				int e = 0;
				while (e < 96) {
					float acc = 0.0f;
					int t = 0;
					while (t < N) { acc += sc[t] * fusecc_bf16_to_float(v[b][h][t][e]); t++; }
					o[b][h][i][e] = fusecc_float_to_bf16(acc / den);
					e++;
				}
			}
}
