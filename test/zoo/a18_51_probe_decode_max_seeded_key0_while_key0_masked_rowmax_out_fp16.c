/* Probe: a decode that seeds the running max with key 0's score (computed before the loop) and
 * takes the max over keys 1.. ; keys are skipped by a padding mask with `continue`, and key 0 may
 * itself be masked. C's max then includes a masked key; the row max is an output. */
#include <math.h>
#include <stdint.h>

void dec_seed_masked(int B, int H, int L, const uint8_t keep[B][L], const _Float16 q[B][H][64], const _Float16 k[B][H][L][64],
		     const _Float16 v[B][H][L][64], _Float16 o[B][H][64], float row_max[B][H])
{
#pragma fuse kernel(dec_seed_masked) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float s0 = 0.0f;
			for (int d = 0; d < 64; d++) s0 += (float)q[b][h][d] * (float)k[b][h][0][d];
			float m = s0 * 0.125f;
			for (int j = 1; j < L; j++) {
				if (!keep[b][j]) continue;
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += (float)q[b][h][d] * (float)k[b][h][j][d];
				m = fmaxf(m, s * 0.125f);
			}
			float l = 0.0f, acc[64] = {0};
			for (int j = 0; j < L; j++) {
				if (!keep[b][j]) continue;
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += (float)q[b][h][d] * (float)k[b][h][j][d];
				const float p = expf(s * 0.125f - m);
				l += p;
				for (int d = 0; d < 64; d++) acc[d] += p * (float)v[b][h][j][d];
			}
			for (int d = 0; d < 64; d++) o[b][h][d] = (_Float16)(acc[d] / l);
			row_max[b][h] = m;
		}
}
