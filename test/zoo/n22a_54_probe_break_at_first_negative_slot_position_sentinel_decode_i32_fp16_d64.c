/* PROBE: a decode over a cache whose unused slots hold position -1; the loop stops at the first such
 * slot (`break`), so the keys after it never count even if they hold positions again. */
#include <math.h>
#include <stdint.h>

void decode_break(int B, int H, int T, const int32_t slot_pos[B][T], const _Float16 q[B][H][64],
		  const _Float16 k[B][T][H][64], const _Float16 v[B][T][H][64], _Float16 o[B][H][64])
{
#pragma fuse kernel(decode_break) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[64] = {0};
			for (int t = 0; t < T; t++) {
				if (slot_pos[b][t] < 0)
					break;
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += (float)q[b][h][d] * (float)k[b][t][h][d];
				s *= 0.125f;
				float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * (float)v[b][t][h][d];
				m = mn;
			}
			for (int d = 0; d < 64; d++) o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
