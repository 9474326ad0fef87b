/* Threshold-sparse decode (skip keys whose score is more than tau below the row's max, as
 * some long-context KV pruning references do): scores stored, max taken, then the kept keys
 * summed and accumulated. */
#include <math.h>

void sparse_decode(int B, int H, int L, float tau, const _Float16 q[B][H][64], const _Float16 k[B][H][L][64],
		   const _Float16 v[B][H][L][64], _Float16 o[B][H][64])
{
#pragma fuse kernel(sparse_decode) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float s[L];
			float m = -INFINITY;
			for (int j = 0; j < L; j++) {
				float a = 0.0f;
				for (int d = 0; d < 64; d++) a += (float)q[b][h][d] * (float)k[b][h][j][d];
				s[j] = a * 0.125f;
				m = fmaxf(m, s[j]);
			}
			float l = 0.0f;
			float acc[64] = {0};
			for (int j = 0; j < L; j++) {
				if (s[j] < m - tau) continue;
				float p = expf(s[j] - m);
				l += p;
				for (int d = 0; d < 64; d++) acc[d] += p * (float)v[b][h][j][d];
			}
			for (int d = 0; d < 64; d++) o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
