/* pf_online_branchy_rescale_causal_fp16.c: causal prefill with the online softmax by hand,
 * the accumulators rescaled only when the max grows: `if (s > m) { float a = expf(m - s);
 * l *= a; for (d) acc[d] *= a; m = s; }`, then p added at the current max. Head dim 64
 * literal, fp16. rolling(j), parallel(b, h, i). */
#include <math.h>
void attn_branchy(int B, int H, int N, float scale, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
        const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(attn_branchy) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++)
					acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= scale;
					if (s > m) {
						float a = expf(m - s);
						l *= a;
						for (int d = 0; d < 64; d++)
							acc[d] *= a;
						m = s;
					}
					float p = expf(s - m);
					l += p;
					for (int d = 0; d < 64; d++)
						acc[d] += p * (float)v[b][h][j][d];
				}
				for (int d = 0; d < 64; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
