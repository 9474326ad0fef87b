/* PROBE: a _Float16 accumulator inside attention's PV (acc kept in half, as a naive fp16 port does);
 * decode, D=64. The fused C must round the same way as the original. */
#include <math.h>

void decode_half_acc(int B, int H, int L, const _Float16 q[B][H][64], const _Float16 k[B][H][L][64],
		     const _Float16 v[B][H][L][64], _Float16 o[B][H][64])
{
#pragma fuse kernel(decode_half_acc) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY;
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += (float)q[b][h][d] * (float)k[b][h][j][d];
				m = fmaxf(m, s * 0.125f);
			}
			float l = 0.0f;
			_Float16 acc[64];
			for (int d = 0; d < 64; d++) acc[d] = 0;
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += (float)q[b][h][d] * (float)k[b][h][j][d];
				float p = expf(s * 0.125f - m);
				l += p;
				for (int d = 0; d < 64; d++) acc[d] += (_Float16)(p * (float)v[b][h][j][d]);
			}
			for (int d = 0; d < 64; d++) o[b][h][d] = (_Float16)((float)acc[d] / l);
		}
}
