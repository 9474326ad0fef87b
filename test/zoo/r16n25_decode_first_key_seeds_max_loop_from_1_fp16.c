/* A student's decode: the max is seeded with key 0's score and the max loop runs from key 1 (no
 * -INFINITY); then sum and PV over all keys; D=64, fp16, cache length pos + 1 from a scalar. */
#include <math.h>

void decode_seed0(int B, int H, int pos, int L, const _Float16 q[B][H][64], const _Float16 k[B][H][L][64],
		  const _Float16 v[B][H][L][64], _Float16 o[B][H][64])
{
#pragma fuse kernel(decode_seed0) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float s0 = 0.0f;
			for (int d = 0; d < 64; d++) s0 += (float)q[b][h][d] * (float)k[b][h][0][d];
			float m = s0 * 0.125f;
			for (int j = 1; j <= pos; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += (float)q[b][h][d] * (float)k[b][h][j][d];
				if (s * 0.125f > m) m = s * 0.125f;
			}
			float l = 0.0f, acc[64];
			for (int d = 0; d < 64; d++) acc[d] = 0.0f;
			for (int j = 0; j <= pos; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += (float)q[b][h][d] * (float)k[b][h][j][d];
				float p = expf(s * 0.125f - m);
				l += p;
				for (int d = 0; d < 64; d++) acc[d] += p * (float)v[b][h][j][d];
			}
			for (int d = 0; d < 64; d++) o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
