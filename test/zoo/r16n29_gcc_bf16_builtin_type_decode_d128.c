/* Decode written with GCC 13's __bf16 type (what a C programmer reaches for before a project
 * typedef): bf16 cache and output, casts to float; D=128, cache length from a scalar. */
#include <math.h>

void decode_bf16(int B, int H, int L, const __bf16 q[B][H][128], const __bf16 k[B][H][L][128],
		 const __bf16 v[B][H][L][128], __bf16 o[B][H][128])
{
#pragma fuse kernel(decode_bf16) parallel(b, h) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[128];
			for (int d = 0; d < 128; d++) acc[d] = 0.0f;
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)q[b][h][d] * (float)k[b][h][j][d];
				s *= 0.08838834764831845f;
				float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
				m = mn;
			}
			for (int d = 0; d < 128; d++) o[b][h][d] = (__bf16)(acc[d] / l);
		}
}
