/* Probe: decode with a uint8 key mask where some sequences mask every key: C gives 0/0 = NaN
 * (as PyTorch's SDPA does); the GPU must too (or at least not a number that looks valid). */
#include <math.h>
#include <stdint.h>

void decode_allmasked(int B, int H, int L, const uint8_t keep[B][L], const _Float16 q[B][H][64],
		      const _Float16 k[B][H][L][64], const _Float16 v[B][H][L][64], float o[B][H][64])
{
#pragma fuse kernel(decode_allmasked) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY;
			float s[L];
			for (int j = 0; j < L; j++) {
				float x = 0.0f;
				for (int d = 0; d < 64; d++) x += (float)q[b][h][d] * (float)k[b][h][j][d];
				s[j] = keep[b][j] ? x * 0.125f : -INFINITY;
				m = fmaxf(m, s[j]);
			}
			float l = 0.0f;
			for (int j = 0; j < L; j++) { s[j] = expf(s[j] - m); l += s[j]; }
			for (int d = 0; d < 64; d++) {
				float a = 0.0f;
				for (int j = 0; j < L; j++) a += s[j] * (float)v[b][h][j][d];
				o[b][h][d] = a / l;
			}
		}
}
