/* A decode that takes the max over the raw scores and applies the key padding mask only to the
 * probabilities (p = keep ? exp(s - m) : 0), as code that masks "after softmax" does. uint8 mask, split-k. */
#include <math.h>
#include <stdint.h>
void decode_postmask(int B, int H, int L, const uint8_t keep[B][L], const _Float16 q[B][H][64], const _Float16 k[B][H][L][64],
		     const _Float16 v[B][H][L][64], _Float16 o[B][H][64])
{
#pragma fuse kernel(decode_postmask) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float sc[L];
			float m = -INFINITY;
			for (int t = 0; t < L; t++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += (float)q[b][h][d] * (float)k[b][h][t][d];
				sc[t] = s * 0.125f;
				m = fmaxf(m, sc[t]);
			}
			float l = 0.0f;
			for (int t = 0; t < L; t++) l += keep[b][t] ? expf(sc[t] - m) : 0.0f;
			for (int d = 0; d < 64; d++) {
				float a = 0.0f;
				for (int t = 0; t < L; t++) a += (keep[b][t] ? expf(sc[t] - m) : 0.0f) * (float)v[b][h][t][d];
				o[b][h][d] = (_Float16)(a / l);
			}
		}
}
